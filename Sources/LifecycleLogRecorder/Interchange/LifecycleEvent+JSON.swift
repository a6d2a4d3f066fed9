/// Conversion between ``LifecycleEvent`` and the JSON objects of the interchange
/// format (`trace-format.md`), with the validation the spec calls input errors.
extension LifecycleEvent {
    /// A field-level validation failure; the line reader adds the line.
    package struct FieldError: Error {
        package var message: String
    }

    /// The interchange format version a trace needs for `v2Feature`, as an
    /// input error's ending.
    private static func needsVersion2(_ what: String, _ version: Int64) -> FieldError {
        let declared = version == 1 ? "the trace is version 1 (its header says so, or it has none)" : "the trace is version \(version)"
        return FieldError(message: "\(what) needs trace format version 2: start the trace with the header {\"format\":\"lifecycle-trace\",\"version\":2}; \(declared)")
    }

    /// Builds an event from the members of one JSON object of a trace of
    /// interchange format `version`.
    ///
    /// A version-1 trace (the default) reads exactly as version 1 did: the
    /// members that version 2 added (`process`, the launch's `debugger`,
    /// `harness` and `activation`, the save's `stage` and `id`, the
    /// write's and read's `document`) stay extra members, `kill` is an
    /// unknown kind, and the values version 2 added (scopes `group` and
    /// `document`, activity state `expire`) are refused, naming the header
    /// that allows them.
    package static func decode(members: [JSONMember], version: Int64 = 1) throws(FieldError) -> LifecycleEvent {
        let v2 = version >= 2
        var fields = FieldReader(members: members)
        guard let name = try fields.string("event") else { throw FieldError(message: "missing required field \"event\"") }
        guard let tValue = fields.take("t") else { throw FieldError(message: "missing required field \"t\"") }
        guard case .number(let tLiteral) = tValue, let t = Double(tLiteral), t.isFinite, t >= 0 else {
            throw FieldError(message: "field \"t\" must be a non-negative number of milliseconds, got \(describe(tValue))")
        }
        let process = v2 ? try fields.string("process") : nil
        let kind: Kind
        switch name {
        case "launch":
            guard let platformName = try fields.string("platform") else { throw fields.missing("platform") }
            guard let platform = Platform(rawValue: platformName) else {
                throw FieldError(message: "unknown platform \"\(platformName)\"; expected one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let scenesValue = fields.take("scenes") else { throw fields.missing("scenes") }
            let scenes = try decodeScenes(scenesValue)
            var launch = Launch(platform: platform, scenes: scenes, reason: try fields.string("reason"),
                                app: try fields.string("app"), os: try fields.string("os"), build: try fields.string("build"))
            if v2 {
                launch.debugger = try fields.bool("debugger")
                launch.harness = try fields.string("harness")
                if let policy = try fields.string("activation") {
                    guard let activation = ActivationPolicy(rawValue: policy) else {
                        throw FieldError(message: "unknown activation \"\(policy)\"; expected regular, accessory or prohibited")
                    }
                    launch.activation = activation
                }
                launch.prewarmed = try fields.bool("prewarmed")
            }
            kind = .launch(launch)
        case "terminate":
            kind = .terminate(reason: try fields.string("reason"))
        case "kill" where v2:
            guard let reason = try fields.string("reason") else { throw fields.missing("reason") }
            kind = .kill(reason: reason, signal: try fields.signal("signal"), by: try fields.string("by"))
        case "open":
            guard let window = try fields.string("window") else { throw fields.missing("window") }
            guard let scene = try fields.string("scene") else { throw fields.missing("scene") }
            kind = .open(window: window, scene: scene, value: fields.take("value"), restored: try fields.bool("restored"))
        case "dismiss":
            guard let window = try fields.string("window") else { throw fields.missing("window") }
            kind = .dismiss(window: window, reason: try fields.string("reason"))
        case "phase":
            guard let phaseName = try fields.string("phase") else { throw fields.missing("phase") }
            guard let phase = LifecyclePhase(rawValue: phaseName) else {
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
                throw FieldError(message: "unknown scope \"\(scopeName)\"; expected scene, app, shared\(v2 ? ", group or document" : " (or, in a version-2 trace, group or document)")")
            }
            if !v2, scope == .group || scope == .document {
                throw needsVersion2("scope \"\(scopeName)\"", version)
            }
            let window = try fields.string("window")
            let versionField = name == "write" ? try fields.version("base") : try fields.version("version")
            let document = v2 ? try fields.string("document") : nil
            if name == "write" {
                kind = .write(key: key, scope: scope, window: window, base: versionField, document: document)
            } else {
                kind = .read(key: key, scope: scope, window: window, version: versionField, document: document)
            }
            // The meaning of the fields, checked as the recorder and the trace writer check it.
            if let problem = kind.validationProblem { throw FieldError(message: problem) }
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
            let window = try fields.string("window")
            let store = try fields.string("store")
            var stage: SaveStage?
            var id: String?
            if v2 {
                if let stageName = try fields.string("stage") {
                    guard let known = SaveStage(rawValue: stageName) else {
                        throw FieldError(message: "unknown save stage \"\(stageName)\"; expected begin or end")
                    }
                    stage = known
                }
                id = try fields.string("id")
            }
            kind = .save(keys: keys, window: window, store: store, stage: stage, id: id)
        case "activity":
            guard let activityName = try fields.string("name") else { throw fields.missing("name") }
            guard let stateName = try fields.string("state") else { throw fields.missing("state") }
            guard let state = LifecycleActivityState(rawValue: stateName) else {
                throw FieldError(message: "unknown activity state \"\(stateName)\"; expected start or stop\(v2 ? " or expire" : " (or, in a version-2 trace, expire)")")
            }
            if !v2, state == .expire {
                throw needsVersion2("activity state \"expire\"", version)
            }
            kind = .activity(name: activityName, state: state, window: try fields.string("window"))
        case "mark":
            guard let label = try fields.string("label") else { throw fields.missing("label") }
            kind = .mark(label: label)
        case "diagnostic":
            // In traces of every version; with members that do not fit, an unknown kind as before.
            guard let diagnostic = diagnostic(from: fields.remaining) else {
                kind = .unknown(name: name)
                break
            }
            return LifecycleEvent(t: t, diagnostic.kind, process: process, extraFields: diagnostic.rest)
        default:
            kind = .unknown(name: name)
        }
        return LifecycleEvent(t: t, kind, process: process, extraFields: fields.remaining)
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
            if let prewarmed = launch.prewarmed { m.append(JSONMember("prewarmed", .bool(prewarmed))) }
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
        case .diagnostic(let check, let message, let window):
            add("check", check)
            add("message", message)
            add("window", window)
        case .unknown:
            break
        }
        return m + extraFields
    }

    /// Whether the event uses anything trace format version 2 added: a
    /// `process`, the `kill` kind, a new field, or a new scope or activity
    /// state. A trace holding such an event is a version-2 trace.
    package var needsFormatVersion2: Bool {
        if process != nil { return true }
        switch kind {
        case .kill: return true
        case .launch(let l): return l.debugger != nil || l.harness != nil || l.activation != nil || l.prewarmed != nil
        case .write(_, let scope, _, _, let document), .read(_, let scope, _, _, let document):
            return document != nil || scope == .group || scope == .document
        case .save(_, _, _, let stage, let id): return stage != nil || id != nil
        case .activity(_, let state, _): return state == .expire
        case .terminate, .open, .dismiss, .phase, .delegate, .mark, .diagnostic, .unknown: return false
        }
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

    func missing(_ name: String) -> LifecycleEvent.FieldError {
        LifecycleEvent.FieldError(message: "missing required field \"\(context)\(name)\"")
    }

    mutating func string(_ name: String) throws(LifecycleEvent.FieldError) -> String? {
        guard let value = take(name) else { return nil }
        guard case .string(let s) = value else {
            throw LifecycleEvent.FieldError(message: "field \"\(context)\(name)\" must be a string, got \(LifecycleEvent.describe(value))\(value == .null ? "; leave the field out when there is none" : "")")
        }
        return s
    }

    mutating func bool(_ name: String) throws(LifecycleEvent.FieldError) -> Bool? {
        guard let value = take(name) else { return nil }
        guard case .bool(let b) = value else {
            throw LifecycleEvent.FieldError(message: "field \"\(context)\(name)\" must be true or false, got \(LifecycleEvent.describe(value))")
        }
        return b
    }

    /// A kill's `signal`: digits, from 0 up to 2^63 − 1 (trace-format.md, Readings 5).
    mutating func signal(_ name: String) throws(LifecycleEvent.FieldError) -> Int? {
        guard let value = take(name) else { return nil }
        guard case .number(let literal) = value, let v = UInt64(literal), let i = Int(exactly: v) else {
            throw LifecycleEvent.FieldError(message: "field \"\(context)\(name)\" must be a whole number from 0 to \(Int.max) (a signal number), got \(LifecycleEvent.describe(value))")
        }
        return i
    }

    mutating func version(_ name: String) throws(LifecycleEvent.FieldError) -> UInt64? {
        guard let value = take(name) else { return nil }
        guard case .number(let literal) = value, let v = UInt64(literal) else {
            throw LifecycleEvent.FieldError(message: "field \"\(context)\(name)\" must be a non-negative whole number (a key version), got \(LifecycleEvent.describe(value))")
        }
        // A trace file stores a version plus one (0: none), so 2^64 − 1 has no room (spec: Readings 5).
        guard v < UInt64.max else {
            throw LifecycleEvent.FieldError(message: "field \"\(context)\(name)\" must be at most 18446744073709551614 (2^64 − 2, the largest key version a trace stores), got \(literal)")
        }
        return v
    }
}
