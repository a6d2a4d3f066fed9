/// Turns the lines of a JSON Lines trace into events: skips blank and `#`
/// lines, reads the optional header, validates each event and that `t` never
/// goes backwards, and numbers the events (their seq).
///
/// Every error names the line, and the column where the JSON parser gives one.
package struct JSONLinesDecoder {
    /// The newest interchange format version this reader understands.
    package static let supportedVersion: Int64 = 2

    /// The interchange format version of the trace being read: what its
    /// header declares, or 1 when it has no header or a header without `version`.
    /// Version-2 fields and values are interpreted only in a version-2 trace.
    package private(set) var formatVersion: Int64 = 1

    package let path: String?
    package private(set) var seq: UInt64 = 0
    package private(set) var lastT: Double = 0
    private var sawFirstObject = false
    /// Whether the version is known rather than assumed: a header declared it,
    /// or the stored trace being continued has it. A trace without either that
    /// uses a `kill` or a `process` member is refused (it needs version 2)
    /// rather than silently read as version 1.
    private var declared = false

    package init(path: String?) { self.path = path }

    /// A decoder that continues a stored trace: seqs after `seq`, times not
    /// before `time`, events read as of `formatVersion` (the stored trace's)
    /// until a header says otherwise. `declared`: whether the stored trace
    /// already has events (so its version is known); a new trace's is not.
    package init(path: String?, continuingAfter seq: UInt64, at time: Double, formatVersion: Int64 = 1, declared: Bool = true) {
        self.path = path
        self.seq = seq
        self.lastT = time
        self.formatVersion = formatVersion
        self.declared = declared
    }

    /// Decodes one line; returns `nil` for blank lines, comments and the header.
    package mutating func decode(line: UnsafeBufferPointer<UInt8>, number: Int) throws -> LifecycleEvent? {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        if i == line.count || line[i] == UInt8(ascii: "#") { return nil }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw LifecycleLogError(.invalidInput, "not valid JSON: \(error.message)", path: path, line: number,
                                    column: Self.column(of: error.offset, in: line))
        }
        guard case .object(let members) = value else {
            throw LifecycleLogError(.invalidInput, "each line must be one JSON object (an event), got \(LifecycleEvent.describe(value))",
                                    path: path, line: number, column: i + 1)
        }
        let isFirst = !sawFirstObject
        sawFirstObject = true
        if isFirst, !members.contains(where: { $0.name == "event" }), let format = members.first(where: { $0.name == "format" }) {
            formatVersion = try checkHeader(format: format.value, members: members, line: number)
            declared = true
            return nil
        }
        if !declared && formatVersion < 2, let what = Self.version2Use(members) {
            throw LifecycleLogError(.invalidInput,
                "\(what) needs trace format version 2: start the trace with the header {\"format\":\"lifecycle-trace\",\"version\":2}; "
                + "the trace has no header, so it would be read as version 1, where \(what) means nothing "
                + "(a header {\"format\":\"lifecycle-trace\",\"version\":1} reads it as version 1)",
                path: path, line: number, seq: seq + 1)
        }
        let event: LifecycleEvent
        do {
            event = try LifecycleEvent.decode(members: members, version: formatVersion)
        } catch {
            throw LifecycleLogError(.invalidInput, error.message, path: path, line: number, seq: seq + 1)
        }
        if event.t < lastT {
            throw LifecycleLogError(.invalidInput,
                                    "\"t\" goes backwards: \(JSONWriter.number(event.t)) is smaller than the previous event's \(JSONWriter.number(lastT)); events must be in the order they happened",
                                    path: path, line: number, seq: seq + 1)
        }
        lastT = event.t
        seq += 1
        return event
    }

    /// What of version 2 an event of a trace without a header uses that a
    /// version 1 reading would silently misread: the kind `kill`, or a
    /// `process` member.
    private static func version2Use(_ members: [JSONMember]) -> String? {
        for member in members {
            if member.name == "event", member.value == .string("kill") { return "the event kind \"kill\"" }
            if member.name == "process" { return "the member \"process\"" }
        }
        return nil
    }

    /// Checks the header; returns the version it declares (1 without `version`).
    private func checkHeader(format: JSONValue, members: [JSONMember], line: Int) throws -> Int64 {
        guard format == .string("lifecycle-trace") else {
            throw LifecycleLogError(.invalidInput, "the header's \"format\" must be \"lifecycle-trace\", got \(LifecycleEvent.describe(format))",
                                    path: path, line: line)
        }
        guard let versionValue = members.first(where: { $0.name == "version" })?.value else { return 1 }
        guard let version = versionValue.integerValue, version >= 1 else {
            throw LifecycleLogError(.invalidInput, "the header's \"version\" must be a whole number from 1, got \(LifecycleEvent.describe(versionValue))",
                                    path: path, line: line)
        }
        if version > Self.supportedVersion {
            throw LifecycleLogError(.unsupportedVersion,
                                    "the trace is format version \(version), but this replay reads version \(Self.supportedVersion); update LifecycleLog to read it",
                                    path: path, line: line)
        }
        return version
    }

    /// The 1-based column, counted in characters (Unicode scalars), of a byte offset.
    package static func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        var i = 0
        while i < min(offset, line.count) {
            if line[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }
}
