/// Conversion between ``Event`` and the JSON objects of the interchange
/// format (`trace-format.md`), with the validation the spec calls input errors.
extension Event {
    /// A field-level validation failure; the line reader adds the line.
    package struct FieldError: Error {
        package var message: String
    }

    /// Builds an event from the members of one JSON object.
    package static func decode(members: [JSONMember]) throws(FieldError) -> Event {
        var fields = FieldReader(members: members)
        guard let name = try fields.string("event") else { throw FieldError(message: "missing required field \"event\"") }
        guard let tValue = fields.take("t") else { throw FieldError(message: "missing required field \"t\"") }
        guard case .number(let tLiteral) = tValue, let t = Double(tLiteral), t.isFinite, t >= 0 else {
            throw FieldError(message: "field \"t\" must be a non-negative number of milliseconds, got \(describe(tValue))")
        }
        let kind: Kind
        switch name {
        case "launch":
            guard let platformName = try fields.string("platform") else { throw fields.missing("platform") }
            guard let platform = Platform(rawValue: platformName) else {
                throw FieldError(message: "unknown platform \"\(platformName)\"; expected one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let scenesValue = fields.take("scenes") else { throw fields.missing("scenes") }
            let scenes = try decodeScenes(scenesValue)
            kind = .launch(Launch(platform: platform, scenes: scenes, reason: try fields.string("reason"),
                                  app: try fields.string("app"), os: try fields.string("os"), build: try fields.string("build")))
        case "terminate":
            kind = .terminate(reason: try fields.string("reason"))
        case "open":
            guard let window = try fields.string("window") else { throw fields.missing("window") }
            guard let scene = try fields.string("scene") else { throw fields.missing("scene") }
            kind = .open(window: window, scene: scene, value: fields.take("value"), restored: try fields.bool("restored"))
        case "dismiss":
            guard let window = try fields.string("window") else { throw fields.missing("window") }
            kind = .dismiss(window: window, reason: try fields.string("reason"))
        case "phase":
            guard let phaseName = try fields.string("phase") else { throw fields.missing("phase") }
            guard let phase = ScenePhase(rawValue: phaseName) else {
                throw FieldError(message: "unknown phase \"\(phaseName)\"; expected active, inactive or background")
            }
            kind = .phase(phase, window: try fields.string("window"))
        case "delegate":
            guard let callback = try fields.string("callback") else { throw fields.missing("callback") }
            kind = .delegate(callback: callback, window: try fields.string("window"))
        case "write", "read":
            guard let key = try fields.string("key") else { throw fields.missing("key") }
            guard let scopeName = try fields.string("scope") else { throw fields.missing("scope") }
            guard let scope = StateScope(rawValue: scopeName) else {
                throw FieldError(message: "unknown scope \"\(scopeName)\"; expected scene, app or shared")
            }
            let window = try fields.string("window")
            if scope == .scene && window == nil {
                throw FieldError(message: "a \(name) of a scene-scoped key needs \"window\" (the window that owns the key)")
            }
            if name == "write" {
                kind = .write(key: key, scope: scope, window: window, base: try fields.version("base"))
            } else {
                kind = .read(key: key, scope: scope, window: window, version: try fields.version("version"))
            }
        case "save":
            var keys: [String]?
            if let keysValue = fields.take("keys") {
                guard case .array(let items) = keysValue else {
                    throw FieldError(message: "field \"keys\" must be a list of key names, got \(describe(keysValue))")
                }
                keys = try items.map { (item) throws(FieldError) -> String in
                    guard case .string(let s) = item else {
                        throw FieldError(message: "field \"keys\" must hold only strings, got \(describe(item))")
                    }
                    return s
                }
            }
            kind = .save(keys: keys, window: try fields.string("window"), store: try fields.string("store"))
        case "activity":
            guard let activityName = try fields.string("name") else { throw fields.missing("name") }
            guard let stateName = try fields.string("state") else { throw fields.missing("state") }
            guard let state = ActivityState(rawValue: stateName) else {
                throw FieldError(message: "unknown activity state \"\(stateName)\"; expected start or stop")
            }
            kind = .activity(name: activityName, state: state, window: try fields.string("window"))
        case "mark":
            guard let label = try fields.string("label") else { throw fields.missing("label") }
            kind = .mark(label: label)
        default:
            kind = .unknown(name: name)
        }
        return Event(t: t, kind, extraFields: fields.remaining)
    }

    private static func decodeScenes(_ value: JSONValue) throws(FieldError) -> [SceneDeclaration] {
        guard case .array(let items) = value else {
            throw FieldError(message: "field \"scenes\" must be a list of scene declarations, got \(describe(value))")
        }
        var scenes: [SceneDeclaration] = []
        for (i, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw FieldError(message: "scenes[\(i)] must be an object like {\"id\":\"main\",\"kind\":\"WindowGroup\"}, got \(describe(item))")
            }
            var fields = FieldReader(members: members, context: "scenes[\(i)].")
            guard let id = try fields.string("id") else { throw fields.missing("id") }
            guard let kind = try fields.string("kind") else { throw fields.missing("kind") }
            scenes.append(SceneDeclaration(id: id, kind: SceneKind(rawValue: kind), presentedType: try fields.string("for"),
                                           title: try fields.string("title"), extraFields: fields.remaining))
        }
        return scenes
    }

    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return "the number \(n)"
        case .string(let s): return "the string \"\(s)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The members of this event as a JSON object: `event`, `t`, the kind's
    /// fields in the order of the spec's table, then the extra fields.
    package var jsonMembers: [JSONMember] {
        var m: [JSONMember] = [JSONMember("event", .string(name)), JSONMember("t", .number(JSONWriter.number(t)))]
        func add(_ name: String, _ value: String?) { if let value { m.append(JSONMember(name, .string(value))) } }
        add("process", process)
        switch kind {
        case .launch(let launch):
            add("platform", launch.platform.rawValue)
            m.append(JSONMember("scenes", .array(launch.scenes.map { scene in
                var s = [JSONMember("id", .string(scene.id)), JSONMember("kind", .string(scene.kind.rawValue))]
                if let f = scene.presentedType { s.append(JSONMember("for", .string(f))) }
                if let title = scene.title { s.append(JSONMember("title", .string(title))) }
                return .object(s + scene.extraFields)
            })))
            add("reason", launch.reason)
            add("app", launch.app)
            add("os", launch.os)
            add("build", launch.build)
            if let debugger = launch.debugger { m.append(JSONMember("debugger", .bool(debugger))) }
            add("harness", launch.harness)
            add("activation", launch.activation?.rawValue)
        case .terminate(let reason):
            add("reason", reason)
        case .kill(let reason, let signal, let by):
            add("reason", reason)
            if let signal { m.append(JSONMember("signal", .number(String(signal)))) }
            add("by", by)
        case .open(let window, let scene, let value, let restored):
            add("window", window)
            add("scene", scene)
            if let value { m.append(JSONMember("value", value)) }
            if let restored { m.append(JSONMember("restored", .bool(restored))) }
        case .dismiss(let window, let reason):
            add("window", window)
            add("reason", reason)
        case .phase(let phase, let window):
            add("phase", phase.rawValue)
            add("window", window)
        case .delegate(let callback, let window):
            add("callback", callback)
            add("window", window)
        case .write(let key, let scope, let window, let base, let document):
            add("key", key)
            add("scope", scope.rawValue)
            add("window", window)
            if let base { m.append(JSONMember("base", .number(String(base)))) }
            add("document", document)
        case .read(let key, let scope, let window, let version, let document):
            add("key", key)
            add("scope", scope.rawValue)
            add("window", window)
            if let version { m.append(JSONMember("version", .number(String(version)))) }
            add("document", document)
        case .save(let keys, let window, let store, let stage, let id):
            if let keys { m.append(JSONMember("keys", .array(keys.map { .string($0) }))) }
            add("window", window)
            add("store", store)
            add("stage", stage?.rawValue)
            add("id", id)
        case .activity(let name, let state, let window):
            add("name", name)
            add("state", state.rawValue)
            add("window", window)
        case .mark(let label):
            add("label", label)
        case .unknown:
            break
        }
        return m + extraFields
    }

    /// This event as one line of JSON (without the newline).
    public var jsonLine: String {
        var out: [UInt8] = []
        JSONWriter.writeObject(jsonMembers, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Takes known fields out of a JSON object, checking their types; what is
/// left are the extra fields.
private struct FieldReader {
    var remaining: [JSONMember]
    let context: String

    init(members: [JSONMember], context: String = "") {
        self.remaining = members
        self.context = context
    }

    mutating func take(_ name: String) -> JSONValue? {
        guard let i = remaining.firstIndex(where: { $0.name == name }) else { return nil }
        return remaining.remove(at: i).value
    }

    func missing(_ name: String) -> Event.FieldError {
        Event.FieldError(message: "missing required field \"\(context)\(name)\"")
    }

    mutating func string(_ name: String) throws(Event.FieldError) -> String? {
        guard let value = take(name) else { return nil }
        guard case .string(let s) = value else {
            throw Event.FieldError(message: "field \"\(context)\(name)\" must be a string, got \(Event.describe(value))\(value == .null ? "; leave the field out when there is none" : "")")
        }
        return s
    }

    mutating func bool(_ name: String) throws(Event.FieldError) -> Bool? {
        guard let value = take(name) else { return nil }
        guard case .bool(let b) = value else {
            throw Event.FieldError(message: "field \"\(context)\(name)\" must be true or false, got \(Event.describe(value))")
        }
        return b
    }

    mutating func version(_ name: String) throws(Event.FieldError) -> UInt64? {
        guard let value = take(name) else { return nil }
        guard case .number(let literal) = value, let v = UInt64(literal) else {
            throw Event.FieldError(message: "field \"\(context)\(name)\" must be a non-negative whole number (a key version), got \(Event.describe(value))")
        }
        return v
    }
}
