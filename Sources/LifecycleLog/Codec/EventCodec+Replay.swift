/// The replay decoder: reads a stored record (layout 1 or 2) straight into a
/// ``ReplayEvent`` (its ``ReplayExtra``, if any, appended to `extras`), keeping symbol ids as names and skipping, after checking,
/// what the rules never read (free text, unknown fields). It accepts exactly
/// the records ``EventCodec/decode(_:symbols:)`` accepts and throws the same
/// `corruptTrace` for the rest, so replay and export agree on damaged files.
extension EventCodec {
    @inline(__always)
    static func decodeForReplay(_ bytes: UnsafeRawBufferPointer, symbols: [String], extras: inout [ReplayExtra]) throws -> ReplayEvent {
        // The count is read here, where it inlines: in the decoder's body the optimiser left it a call.
        try decodeForReplay(bytes, symbols: symbols, symbolCount: symbols.count, extras: &extras)
    }

    private static func decodeForReplay(_ bytes: UnsafeRawBufferPointer, symbols: [String], symbolCount: Int,
                                        extras: inout [ReplayExtra]) throws -> ReplayEvent {
        var r = ByteReader(bytes)
        let tagByte = try r.byte()
        let ext = tagByte & extensionFlag != 0
        guard let tag = Tag(rawValue: tagByte & ~extensionFlag) else { throw r.corrupt("unknown event tag \(tagByte)") }
        let t = try readTime(&r)
        let limit = UInt64(symbolCount)
        var e = ReplayEvent(t: t, kind: tag)
        switch tag {
        case .phase:
            e.phase = try requiredCode(&r, LifecyclePhase.init(storedCode:))
            e.window = try optionalName(&r, limit) ?? ReplayEvent.noWindow
        case .write, .read:
            e.name = try name(&r, limit)
            e.scope = try requiredCode(&r, StateScope.init(storedCode:))
            e.window = try optionalName(&r, limit) ?? ReplayEvent.noWindow
            if let v = try version(&r) {
                e.hasVersion = true
                e.version = v
            }
            if ext, let document = try optionalName(&r, limit) { e.attach(ReplayExtra(document: document), to: &extras) }
        case .save:
            try decodeSave(&r, limit, ext: ext, into: &e, extras: &extras)
        case .activity:
            e.name = try name(&r, limit)
            e.activityState = try requiredCode(&r, LifecycleActivityState.init(storedCode:))
            e.window = try optionalName(&r, limit) ?? ReplayEvent.noWindow
        case .delegate:
            let callback = try name(&r, limit)
            e.name = callback
            let text = symbols[Int(callback)]
            e.isWillTerminate = text.utf8.count == 13 && text == "willTerminate"  // the count first: most callbacks differ in it
            e.window = try optionalName(&r, limit) ?? ReplayEvent.noWindow
        case .open:
            e.window = try name(&r, limit)
            e.name = try name(&r, limit)
            let restoredCode = try r.byte()
            guard restoredCode <= 2 else { throw r.corrupt("bad restored flag") }
            e.restored = restoredCode == 2
            let hasValue = try r.byte()
            guard hasValue <= 1 else { throw r.corrupt("bad value flag") }
            if hasValue == 1 { e.attach(ReplayExtra(value: try JSONValueCodec.decode(&r, depth: 0)), to: &extras) }
        case .dismiss:
            e.window = try name(&r, limit)
            _ = try skipText(&r)  // reason
        case .terminate:
            _ = try skipText(&r)  // reason
        case .kill:
            try decodeKill(&r, limit, into: &e, extras: &extras)
        case .mark:
            guard try skipText(&r) else { throw r.corrupt("missing label") }
        case .unknown:
            e.name = try name(&r, limit)
            if symbols[Int(e.name)] == "diagnostic" {  // rare: a diagnostic reads its extra members (FORMAT.md)
                return try decodeDiagnostic(&r, limit, ext: ext, into: e, symbols: symbols, extras: &extras)
            }
        case .launch:
            e.attach(ReplayExtra(launch: try decodeLaunch(&r, limit, ext: ext, symbols: symbols)), to: &extras)
        }
        if ext { e.process = try optionalName(&r, limit) ?? ReplayEvent.mainProcess }
        try skipExtras(&r, limit: limit)
        guard r.isAtEnd else { throw r.corrupt("\(r.bytes.count - r.offset) unexpected trailing bytes") }
        return e
    }

    // The kinds below carry more than numbers (a ``ReplayExtra``) and are rare (a few percent of
    // events): decoded out of line, so that the decoder of the common kinds stays small enough
    // for the compiler to inline its small helpers (`ByteReader`, `Tag(rawValue:)`) into it.

    /// A `save`'s fields (its key list and `store` go to a ``ReplayExtra`` when present).
    @inline(never)
    private static func decodeSave(_ r: inout ByteReader, _ limit: UInt64, ext: Bool, into e: inout ReplayEvent,
                                   extras: inout [ReplayExtra]) throws {
        let n = try r.varint()
        var keys: [Name]?
        if n > 0 {
            guard n - 1 <= UInt64(r.bytes.count) else { throw r.corrupt("key count out of range") }
            var list: [Name] = []
            list.reserveCapacity(Int(n - 1))
            for _ in 0..<Int(n - 1) { list.append(try name(&r, limit)) }
            keys = list
        }
        e.window = try optionalName(&r, limit) ?? ReplayEvent.noWindow
        let store = ext ? try readText(&r) : (try skipText(&r), nil).1  // read only where a stage may pair by it
        if ext {
            e.saveStage = try optionalCode(&r, SaveStage.init(storedCode:))
            e.name = try optionalName(&r, limit) ?? ReplayEvent.noName
        } else {
            e.name = ReplayEvent.noName
        }
        if e.saveStage != nil, let store {
            e.attach(ReplayExtra(keys: keys, store: store), to: &extras)
        } else if let keys {
            e.attach(ReplayExtra(keys: keys), to: &extras)
        }
    }

    /// The rest of a record of the unknown tag named `diagnostic`: its process, then its extra
    /// members, which make it a diagnostic when ``LifecycleEvent/diagnostic(from:)`` says they do
    /// (its fields go to a ``ReplayExtra``); otherwise it stays an unknown kind.
    @inline(never)
    private static func decodeDiagnostic(_ r: inout ByteReader, _ limit: UInt64, ext: Bool, into event: ReplayEvent, symbols: [String],
                                         extras: inout [ReplayExtra]) throws -> ReplayEvent {
        var e = event
        if ext { e.process = try optionalName(&r, limit) ?? ReplayEvent.mainProcess }
        let n = try r.count(limit: r.bytes.count)
        var members: [JSONMember] = []
        for _ in 0..<n {
            let nameID = try r.varint()
            guard nameID > 0 else { throw r.corrupt("missing field name") }
            guard nameID <= limit else {
                throw LifecycleLogError(.corruptTrace, "stored event names string #\(nameID - 1), but the trace has only \(limit); the trace is damaged")
            }
            members.append(JSONMember(symbols[Int(nameID - 1)], try JSONValueCodec.decode(&r, depth: 0)))
        }
        guard r.isAtEnd else { throw r.corrupt("\(r.bytes.count - r.offset) unexpected trailing bytes") }
        if case .diagnostic(let check, let message, let window)? = LifecycleEvent.diagnostic(from: members)?.kind {
            let diagnostic = ReplayDiagnostic(check: check, message: message, window: window)
            e.attach(ReplayExtra(kill: ReplayKill(signal: nil, by: ReplayEvent.noName, diagnostic: diagnostic)), to: &extras)
        }
        return e
    }

    /// A `kill`'s reason (``ReplayEvent/name``), with its signal and `by` in a ``ReplayExtra``.
    @inline(never)
    private static func decodeKill(_ r: inout ByteReader, _ limit: UInt64, into e: inout ReplayEvent, extras: inout [ReplayExtra]) throws {
        e.name = try name(&r, limit)
        let s = try r.varint()
        var signal: Int?
        if s > 0 {
            guard let i = Int(exactly: unzigzag(s - 1)) else { throw r.corrupt("signal out of range") }
            signal = i
        }
        e.attach(ReplayExtra(kill: ReplayKill(signal: signal, by: try optionalName(&r, limit) ?? ReplayEvent.noName)), to: &extras)
    }

    /// A `launch`'s fields the rules read.
    @inline(never)
    private static func decodeLaunch(_ r: inout ByteReader, _ limit: UInt64, ext: Bool, symbols: [String]) throws -> ReplayLaunch {
        let platform = try requiredCode(&r, Platform.init(storedCode:))
        let sceneCount = try r.count(limit: r.bytes.count)
        var scenes: [ReplayLaunch.Scene] = []
        scenes.reserveCapacity(sceneCount)  // at most one per remaining byte (checked above)
        for _ in 0..<sceneCount {
            let id = try name(&r, limit)
            let kindName = try name(&r, limit)
            let presented = try skipText(&r)
            _ = try skipText(&r)  // title
            try skipExtras(&r, limit: limit)
            scenes.append(.init(id: id, kind: SceneKind(rawValue: symbols[Int(kindName)]), hasPresentedType: presented))
        }
        let reason = try readReason(&r)
        _ = try skipText(&r)  // app
        let os = try readText(&r)
        let build = try readText(&r)
        var session = ReplayLaunch.Session(isPrewarm: reason.isPrewarm)
        if ext {
            let debugger = try r.byte()
            guard debugger <= 2 else { throw r.corrupt("bad debugger flag") }
            session.debugger = debugger == 0 ? nil : debugger == 2
            session.harness = try optionalName(&r, limit) ?? ReplayEvent.noName
            session.activation = try optionalCode(&r, ActivationPolicy.init(storedCode:))
        }
        return ReplayLaunch(platform: platform, scenes: scenes, isBackgroundLaunch: reason.isBackground, session: session,
                            build: build, os: os)
    }

    @inline(__always)
    private static func optionalName(_ r: inout ByteReader, _ limit: UInt64) throws -> Name? {
        let v = try r.varint()
        if v == 0 { return nil }
        guard v <= limit else {
            throw LifecycleLogError(.corruptTrace, "stored event names string #\(v - 1), but the trace has only \(limit); the trace is damaged")
        }
        return Name(truncatingIfNeeded: v - 1)
    }

    @inline(__always)
    private static func name(_ r: inout ByteReader, _ limit: UInt64) throws -> Name {
        guard let n = try optionalName(&r, limit) else { throw r.corrupt("missing required name") }
        return n
    }

    /// A launch's `reason`, checked as ``skipText(_:)`` checks text and compared where it lies: the
    /// rules read only whether it is `prewarm` or `background`, so no `String` is made. Comparing
    /// bytes is `String`'s comparison here: no other text is canonically equivalent to these
    /// lowercase ASCII words.
    private static func readReason(_ r: inout ByteReader) throws -> (isPrewarm: Bool, isBackground: Bool) {
        let n = try r.varint()
        if n == 0 { return (false, false) }
        guard n - 1 <= UInt64(r.bytes.count - r.offset) else { throw r.corrupt("text past the end") }
        let end = r.offset + Int(n - 1)
        let text = UnsafeRawBufferPointer(rebasing: r.bytes[r.offset..<end])
        guard isValidUTF8(text) else { throw r.corrupt("invalid UTF-8") }
        r.offset = end
        return (text.elementsEqual("prewarm".utf8), text.elementsEqual("background".utf8))
    }

    /// Checks and skips an optional text field; whether it was there.
    private static func skipText(_ r: inout ByteReader) throws -> Bool {
        let n = try r.varint()
        if n == 0 { return false }
        guard n - 1 <= UInt64(r.bytes.count - r.offset) else { throw r.corrupt("text past the end") }
        let end = r.offset + Int(n - 1)
        guard isValidUTF8(UnsafeRawBufferPointer(rebasing: r.bytes[r.offset..<end])) else { throw r.corrupt("invalid UTF-8") }
        r.offset = end
        return true
    }

    @inline(__always)
    private static func version(_ r: inout ByteReader) throws -> UInt64? {
        let v = try r.varint()
        return v == 0 ? nil : v - 1
    }


    /// Checks and skips the unknown fields of a record.
    @inline(__always)
    private static func skipExtras(_ r: inout ByteReader, limit: UInt64) throws {
        // Nearly every record has none: one zero byte.
        if r.offset < r.bytes.count, r.bytes[r.offset] == 0 {
            r.offset += 1
            return
        }
        try skipSomeExtras(&r, limit: limit)
    }

    private static func skipSomeExtras(_ r: inout ByteReader, limit: UInt64) throws {
        let n = try r.count(limit: r.bytes.count)
        for _ in 0..<n {
            let nameID = try r.varint()
            guard nameID > 0 else { throw r.corrupt("missing field name") }
            guard nameID <= limit else {
                throw LifecycleLogError(.corruptTrace, "stored event names string #\(nameID - 1), but the trace has only \(limit); the trace is damaged")
            }
            try skipValue(&r, depth: 0)
        }
    }

    /// Checks and skips one stored `JSONValue` without building it.
    private static func skipValue(_ r: inout ByteReader, depth: Int) throws {
        guard depth <= JSONParser.maxDepth else { throw r.corrupt("value nested too deeply") }
        let tag = try r.byte()
        switch tag {
        case 0, 1, 2: return
        case 3: _ = try r.varint()
        case 4:
            // Rare (numbers that are not 64-bit integers): checked as decode checks them.
            guard JSONValueCodec.isNumberLiteral(try r.string()) else { throw r.corrupt("bad number literal") }
        case 5: try skipString(&r)
        case 6:
            let n = try r.count(limit: r.bytes.count - r.offset)
            for _ in 0..<n { try skipValue(&r, depth: depth + 1) }
        case 7:
            let n = try r.count(limit: r.bytes.count - r.offset)
            for _ in 0..<n {
                try skipString(&r)
                try skipValue(&r, depth: depth + 1)
            }
        default:
            throw r.corrupt("unknown value tag \(tag)")
        }
    }

    private static func skipString(_ r: inout ByteReader) throws {
        let declared = try r.varint()
        guard declared <= UInt64(r.bytes.count - r.offset) else { throw r.corrupt("string of \(declared) bytes runs past the end") }
        let end = r.offset + Int(declared)
        guard isValidUTF8(UnsafeRawBufferPointer(rebasing: r.bytes[r.offset..<end])) else { throw r.corrupt("invalid UTF-8") }
        r.offset = end
    }
}
