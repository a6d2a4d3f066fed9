/// The stored binary encoding of one event (record layouts 1 and 2), documented
/// byte by byte in FORMAT.md. No JSON and no `Codable`: identifiers are
/// numbers into the trace's ``SymbolTable``, enums are single bytes, integers
/// are varints.
///
/// Layout 2 extends layout 1 and never changes a layout-1 record: an event
/// without version-2 data is stored exactly as layout 1 stores it. One with
/// version-2 data (a `process`, a launch's `debugger`/`harness`/`activation`,
/// a save's `stage`/`id`, a write's or read's `document`) sets the tag's high
/// bit (``extensionFlag``) and adds an extension after the layout-1 fields;
/// `kill` is the new tag 12, and the code tables gained entries.
@usableFromInline package enum EventCodec {
    /// The newest stored layout this version reads, and the one it creates traces in: layout 3,
    /// whose records and symbols end with a ``RecordChecksum`` (issue 28).
    static let layoutVersion: UInt32 = 3
    /// The layout of a trace without checksums that holds version-2 data (a trace created before
    /// layout 3 moves to it when it first stores version-2 data, as before).
    static let version2LayoutVersion: UInt32 = 2
    /// The first layout whose records and symbols carry a checksum.
    static let checksumLayoutVersion: UInt32 = 3
    /// The layout of a trace written before layout 2 that holds no version-2 data.
    static let baseLayoutVersion: UInt32 = 1
    /// The bit of the tag byte that says an extension follows the layout-1 fields.
    @usableFromInline package static let extensionFlag: UInt8 = 0x80

    /// The stored format's tag for each event kind (defined beside the reducer, which switches on it).
    package typealias Tag = EventTag



    // MARK: Encoding

    /// Appends the record of `event` to `w`, interning identifiers in `symbols`.
    /// Returns whether the record holds version-2 data (so the trace needs layout 2).
    @discardableResult
    static func encode(_ event: LifecycleEvent, into w: inout ByteWriter, symbols: inout SymbolTable) -> Bool {
        withUnsafePointer(to: event) { encode($0, into: &w, symbols: &symbols) }
    }

    /// ``encode(_:into:symbols:)`` of the event at `pointer`, read in place: the
    /// append path encodes the elements of an array without copying them.
    @discardableResult
    static func encode(_ event: UnsafePointer<LifecycleEvent>, into w: inout ByteWriter, symbols: inout SymbolTable) -> Bool {
        let process = event.pointee.process
        var ext = process != nil
        /// Version-2 data that needs no extension (a kill, a new code); with `ext`, what the method returns.
        var newer = false
        /// The tag byte, with the extension flag when `ext`.
        @inline(__always) func tag(_ t: Tag) -> UInt8 { ext ? t.rawValue | extensionFlag : t.rawValue }
        switch event.pointee.kind {
        case .unknown(let name):
            w.byte(tag(.unknown)); time(event.pointee.t, &w); sym(name, &w, &symbols)
        case .launch(let l):
            if l.debugger != nil || l.harness != nil || l.activation != nil { ext = true }
            w.byte(tag(.launch)); time(event.pointee.t, &w)
            w.byte(l.platform.storedCode)
            w.varint(UInt64(l.scenes.count))
            for scene in l.scenes {
                sym(scene.id, &w, &symbols); sym(scene.kind.rawValue, &w, &symbols)
                text(scene.presentedType, &w); text(scene.title, &w)
                extras(scene.extraFields, &w, &symbols)
            }
            text(l.reason, &w); text(l.app, &w); text(l.os, &w); text(l.build, &w)
            if ext {
                w.byte(l.debugger.map { $0 ? 2 : 1 } ?? 0); sym(l.harness, &w, &symbols); w.byte(l.activation?.storedCode ?? 0)
            }
        case .terminate(let reason):
            w.byte(tag(.terminate)); time(event.pointee.t, &w); text(reason, &w)
        case .kill(let reason, let signal, let by):
            newer = true
            w.byte(tag(.kill)); time(event.pointee.t, &w); sym(reason, &w, &symbols)
            w.varint(signal.map { zigzag(Int64($0)) &+ 1 } ?? 0); sym(by, &w, &symbols)
        case .open(let window, let scene, let value, let restored):
            w.byte(tag(.open)); time(event.pointee.t, &w)
            sym(window, &w, &symbols); sym(scene, &w, &symbols)
            w.byte(restored.map { $0 ? 2 : 1 } ?? 0)
            if let value { w.byte(1); JSONValueCodec.encode(value, into: &w) } else { w.byte(0) }
        case .dismiss(let window, let reason):
            w.byte(tag(.dismiss)); time(event.pointee.t, &w); sym(window, &w, &symbols); text(reason, &w)
        case .phase(let phase, let window):
            w.byte(tag(.phase)); time(event.pointee.t, &w)
            w.byte(phase.storedCode)
            sym(window, &w, &symbols)
        case .delegate(let callback, let window):
            w.byte(tag(.delegate)); time(event.pointee.t, &w); sym(callback, &w, &symbols); sym(window, &w, &symbols)
        case .write(let key, let scope, let window, let base, let document):
            if document != nil { ext = true }
            if scope == .group || scope == .document { newer = true }
            w.byte(tag(.write)); time(event.pointee.t, &w); sym(key, &w, &symbols)
            w.byte(scope.storedCode); sym(window, &w, &symbols); w.varint(base.map { $0 &+ 1 } ?? 0)
            if ext { sym(document, &w, &symbols) }
        case .read(let key, let scope, let window, let v, let document):
            if document != nil { ext = true }
            if scope == .group || scope == .document { newer = true }
            w.byte(tag(.read)); time(event.pointee.t, &w); sym(key, &w, &symbols)
            w.byte(scope.storedCode); sym(window, &w, &symbols); w.varint(v.map { $0 &+ 1 } ?? 0)
            if ext { sym(document, &w, &symbols) }
        case .save(let keys, let window, let store, let stage, let id):
            if stage != nil || id != nil { ext = true }
            w.byte(tag(.save)); time(event.pointee.t, &w)
            if let keys {
                w.varint(UInt64(keys.count) + 1)
                for key in keys { sym(key, &w, &symbols) }
            } else {
                w.byte(0)
            }
            sym(window, &w, &symbols); text(store, &w)
            if ext { w.byte(stage?.storedCode ?? 0); sym(id, &w, &symbols) }
        case .activity(let name, let state, let window):
            if state == .expire { newer = true }
            w.byte(tag(.activity)); time(event.pointee.t, &w); sym(name, &w, &symbols)
            w.byte(state.storedCode); sym(window, &w, &symbols)
        case .mark(let label):
            w.byte(tag(.mark)); time(event.pointee.t, &w); text(label, &w)
        case .diagnostic(let check, let message, let window):
            // Stored as an unknown kind named "diagnostic" whose first extra members are its fields
            // (FORMAT.md): no new tag, so a reader from before issue 29 keeps it as an unknown kind.
            w.byte(tag(.unknown)); time(event.pointee.t, &w); sym("diagnostic", &w, &symbols)
            if ext { sym(process, &w, &symbols) }
            var fields = [JSONMember("check", .string(check)), JSONMember("message", .string(message))]
            if let window { fields.append(JSONMember("window", .string(window))) }
            extras(fields + event.pointee.extraFields, &w, &symbols)
            return ext
        }
        if ext { sym(process, &w, &symbols) }
        if case .launch(let l) = event.pointee.kind, let prewarmed = l.prewarmed {
            // Stored as the first extra member (layout 3 unchanged): a reader before issue 29 keeps
            // it as an unknown member, exported as written; this one takes it back into the launch.
            extras([JSONMember("prewarmed", .bool(prewarmed))] + event.pointee.extraFields, &w, &symbols)
            return true
        }
        extras(event.pointee.extraFields, &w, &symbols)
        return ext || newer
    }

    /// A signed integer as a zigzag varint value.
    @inline(__always)
    static func zigzag(_ i: Int64) -> UInt64 { UInt64(bitPattern: (i << 1) ^ (i >> 63)) }

    /// The integer of a zigzag varint value.
    @inlinable @inline(__always)
    package static func unzigzag(_ z: UInt64) -> Int64 { Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))) }

    /// A name: 0 for none, else its symbol id plus one.
    @inline(__always)
    private static func sym(_ s: String?, _ w: inout ByteWriter, _ symbols: inout SymbolTable) {
        guard let s else { w.byte(0); return }
        w.varint(UInt64(symbols.intern(s).id) + 1)
    }

    /// Free text: 0 for none, else its UTF-8 length plus one, then the bytes.
    private static func text(_ s: String?, _ w: inout ByteWriter) {
        guard let s else { w.byte(0); return }
        w.varint(UInt64(s.utf8.count) + 1)
        w.utf8(s)
    }

    @inline(__always)
    private static func time(_ t: Double, _ w: inout ByteWriter) {
        // A whole number of milliseconds (nearly always) is a varint; anything else a double.
        if t >= 0, t < 4.6e18, Double(UInt64(t)) == t {
            w.varint(UInt64(t) << 1)
        } else {
            w.varint(1)
            w.double(t)
        }
    }

    @inline(__always)
    private static func extras(_ members: [JSONMember], _ w: inout ByteWriter, _ symbols: inout SymbolTable) {
        if members.isEmpty { w.byte(0); return }
        someExtras(members, &w, &symbols)
    }

    private static func someExtras(_ members: [JSONMember], _ w: inout ByteWriter, _ symbols: inout SymbolTable) {
        w.varint(UInt64(members.count))
        for m in members {
            w.varint(UInt64(symbols.intern(m.name).id) + 1)
            JSONValueCodec.encode(m.value, into: &w)
        }
    }

    // MARK: Decoding

    /// Decodes one record. Every byte is checked: a damaged record throws
    /// `corruptTrace`, it never traps.
    static func decode(_ bytes: UnsafeRawBufferPointer, symbols: SymbolTable) throws -> LifecycleEvent {
        var r = ByteReader(bytes)
        let tagByte = try r.byte()
        let ext = tagByte & extensionFlag != 0
        guard let tag = Tag(rawValue: tagByte & ~extensionFlag) else { throw r.corrupt("unknown event tag \(tagByte)") }
        let t = try readTime(&r)

        func optionalSym() throws -> String? {
            let v = try r.varint()
            return v == 0 ? nil : try symbols.string(v - 1)
        }
        func requiredSym() throws -> String {
            guard let s = try optionalSym() else { throw r.corrupt("missing required name") }
            return s
        }
        func text() throws -> String? { try readText(&r) }
        func version() throws -> UInt64? {
            let v = try r.varint()
            return v == 0 ? nil : v - 1
        }

        let kind: LifecycleEvent.Kind
        switch tag {
        case .unknown: kind = .unknown(name: try requiredSym())
        case .launch:
            let platform = try requiredCode(&r, Platform.init(storedCode:))
            let sceneCount = try r.count(limit: r.bytes.count)
            var scenes: [SceneDeclaration] = []
            for _ in 0..<sceneCount {
                let id = try requiredSym()
                let kindName = try requiredSym()
                let presented = try text()
                let title = try text()
                scenes.append(SceneDeclaration(id: id, kind: SceneKind(rawValue: kindName), presentedType: presented,
                                               title: title, extraFields: try readExtras(&r, symbols)))
            }
            var launch = LifecycleEvent.Launch(platform: platform, scenes: scenes, reason: try text(), app: try text(),
                                      os: try text(), build: try text())
            if ext {
                let debugger = try r.byte()
                guard debugger <= 2 else { throw r.corrupt("bad debugger flag") }
                launch.debugger = debugger == 0 ? nil : debugger == 2
                launch.harness = try optionalSym()
                launch.activation = try optionalCode(&r, ActivationPolicy.init(storedCode:))
            }
            kind = .launch(launch)
        case .terminate: kind = .terminate(reason: try text())
        case .kill:
            let reason = try requiredSym()
            let s = try r.varint()
            var signal: Int?
            if s > 0 {
                guard let i = Int(exactly: unzigzag(s - 1)) else { throw r.corrupt("signal out of range") }
                signal = i
            }
            kind = .kill(reason: reason, signal: signal, by: try optionalSym())
        case .open:
            let window = try requiredSym()
            let scene = try requiredSym()
            let restoredCode = try r.byte()
            guard restoredCode <= 2 else { throw r.corrupt("bad restored flag") }
            let hasValue = try r.byte()
            guard hasValue <= 1 else { throw r.corrupt("bad value flag") }
            let value = hasValue == 1 ? try JSONValueCodec.decode(&r, depth: 0) : nil
            kind = .open(window: window, scene: scene, value: value, restored: restoredCode == 0 ? nil : restoredCode == 2)
        case .dismiss: kind = .dismiss(window: try requiredSym(), reason: try text())
        case .phase: kind = .phase(try requiredCode(&r, LifecyclePhase.init(storedCode:)), window: try optionalSym())
        case .delegate: kind = .delegate(callback: try requiredSym(), window: try optionalSym())
        case .write:
            kind = .write(key: try requiredSym(), scope: try requiredCode(&r, StateScope.init(storedCode:)), window: try optionalSym(), base: try version(),
                          document: ext ? try optionalSym() : nil)
        case .read:
            kind = .read(key: try requiredSym(), scope: try requiredCode(&r, StateScope.init(storedCode:)), window: try optionalSym(), version: try version(),
                         document: ext ? try optionalSym() : nil)
        case .save:
            let n = try r.varint()
            var keys: [String]?
            if n > 0 {
                guard n - 1 <= UInt64(r.bytes.count) else { throw r.corrupt("key count out of range") }
                keys = try (0..<Int(n - 1)).map { _ in try requiredSym() }
            }
            let window = try optionalSym()
            let store = try text()
            if ext {
                kind = .save(keys: keys, window: window, store: store, stage: try optionalCode(&r, SaveStage.init(storedCode:)), id: try optionalSym())
            } else {
                kind = .save(keys: keys, window: window, store: store)
            }
        case .activity: kind = .activity(name: try requiredSym(), state: try requiredCode(&r, LifecycleActivityState.init(storedCode:)), window: try optionalSym())
        case .mark:
            guard let label = try text() else { throw r.corrupt("missing label") }
            kind = .mark(label: label)
        }
        let process = ext ? try optionalSym() : nil
        var extra = try readExtras(&r, symbols)
        guard r.isAtEnd else { throw r.corrupt("\(r.bytes.count - r.offset) unexpected trailing bytes") }
        var event = LifecycleEvent(t: t, kind, process: process, extraFields: extra)
        if case .unknown(let name) = kind, name == "diagnostic", let diagnostic = LifecycleEvent.diagnostic(from: extra) {
            return LifecycleEvent(t: t, diagnostic.kind, process: process, extraFields: diagnostic.rest)
        }
        if case .launch(var launch) = kind, let first = extra.first, first.name == "prewarmed", case .bool(let prewarmed) = first.value {
            extra.removeFirst()
            launch.prewarmed = prewarmed
            event = LifecycleEvent(t: t, .launch(launch), process: process, extraFields: extra)
        }
        return event
    }

    /// A time: a whole number of milliseconds as an even varint, or 1 then a double.
    @inlinable @inline(__always)
    package static func readTime(_ r: inout ByteReader) throws -> Double {
        let v = try r.varint()
        if v & 1 == 0 { return Double(v >> 1) }
        guard v == 1 else { throw r.corrupt("bad time encoding") }
        let d = try r.double()
        guard d.isFinite, d >= 0 else { throw r.corrupt("bad time value") }
        return d
    }

    /// An optional free-text field: 0 for none, else its UTF-8 length plus one, then the bytes.
    package static func readText(_ r: inout ByteReader) throws -> String? {
        let n = try r.varint()
        if n == 0 { return nil }
        guard n - 1 <= UInt64(r.bytes.count - r.offset) else { throw r.corrupt("text past the end") }
        let slice = UnsafeRawBufferPointer(rebasing: r.bytes[r.offset..<(r.offset + Int(n - 1))])
        // Checked in place before the string is made (the same test as comparing the string's
        // UTF-8 with the bytes, without walking the string's generic UTF8View).
        guard isValidUTF8(slice) else { throw r.corrupt("invalid UTF-8") }
        r.offset += Int(n - 1)
        return String(decoding: slice, as: UTF8.self)
    }

    /// Whether `bytes` are well-formed UTF-8 (what `String(decoding:)` keeps
    /// unchanged): no stray continuation bytes, no overlong forms, no
    /// surrogates, nothing above U+10FFFF. Checked in place, without making a string.
    @inlinable package static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            @inline(__always) func continuation(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
            switch b0 {
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard continuation(1), continuation(2) else { return false }
                let b1 = bytes[i + 1]
                if b0 == 0xE0 && b1 < 0xA0 { return false }  // overlong
                if b0 == 0xED && b1 > 0x9F { return false }  // surrogate
                i += 3
            case 0xF0...0xF4:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                let b1 = bytes[i + 1]
                if b0 == 0xF0 && b1 < 0x90 { return false }  // overlong
                if b0 == 0xF4 && b1 > 0x8F { return false }  // above U+10FFFF
                i += 4
            default:
                return false
            }
        }
        return true
    }

    private static func readExtras(_ r: inout ByteReader, _ symbols: SymbolTable) throws -> [JSONMember] {
        let n = try r.count(limit: r.bytes.count)
        if n == 0 { return [] }
        var members: [JSONMember] = []
        members.reserveCapacity(n)
        for _ in 0..<n {
            let nameID = try r.varint()
            guard nameID > 0 else { throw r.corrupt("missing field name") }
            members.append(JSONMember(try symbols.string(nameID - 1), try JSONValueCodec.decode(&r, depth: 0)))
        }
        return members
    }
}

/// The stored encoding of a `JSONValue` (FORMAT.md, "Values").
package enum JSONValueCodec {
    static func encode(_ value: JSONValue, into w: inout ByteWriter) {
        switch value {
        case .null: w.byte(0)
        case .bool(let b): w.byte(b ? 2 : 1)
        case .number(let literal):
            if let i = Int64(literal), String(i) == literal {
                w.byte(3)
                w.varint(UInt64(bitPattern: (i << 1) ^ (i >> 63)))  // zigzag
            } else {
                w.byte(4)
                w.string(literal)
            }
        case .string(let s): w.byte(5); w.string(s)
        case .array(let items):
            w.byte(6); w.varint(UInt64(items.count))
            for item in items { encode(item, into: &w) }
        case .object(let members):
            w.byte(7); w.varint(UInt64(members.count))
            for m in members { w.string(m.name); encode(m.value, into: &w) }
        }
    }

    package static func decode(_ r: inout ByteReader, depth: Int) throws -> JSONValue {
        guard depth <= JSONParser.maxDepth else { throw r.corrupt("value nested too deeply") }
        let tag = try r.byte()
        switch tag {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3:
            let z = try r.varint()
            let i = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            return .number(String(i))
        case 4:
            let literal = try r.string()
            guard isNumberLiteral(literal) else { throw r.corrupt("bad number literal") }
            return .number(literal)
        case 5: return .string(try r.string())
        case 6:
            let n = try r.count(limit: r.bytes.count - r.offset)
            var items: [JSONValue] = []
            for _ in 0..<n { items.append(try decode(&r, depth: depth + 1)) }
            return .array(items)
        case 7:
            let n = try r.count(limit: r.bytes.count - r.offset)
            var members: [JSONMember] = []
            for _ in 0..<n {
                let name = try r.string()
                members.append(JSONMember(name, try decode(&r, depth: depth + 1)))
            }
            return .object(members)
        default:
            throw r.corrupt("unknown value tag \(tag)")
        }
    }

    /// Whether `s` is a JSON number literal (so that export never writes invalid JSON).
    package static func isNumberLiteral(_ s: String) -> Bool {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBufferPointer { buf in
            if case .number? = try? JSONParser.parse(UnsafeBufferPointer(buf)) { return true }
            return false
        }
    }
}
