internal import LifecycleLogPlatform

/// Trace files: `.lmdb` traces beside the JSON Lines and in-memory replay of `LifecycleLogRules`.
extension Replayer {
    /// Whether `path` is a JSON Lines trace rather than a trace file: `-`
    /// (standard input), a name ending in `.jsonl` or `.ndjson` (in any case),
    /// or, under any other name but `.lmdb`, a file whose content is JSON Lines
    /// (its first bytes are not a trace file's and start a JSON object or a
    /// `#` comment), so that `session.json`, `spool.log` or `trace` read as
    /// what they hold.
    public static func isJSONLines(_ path: String) -> Bool {
        if path == "-" { return true }
        switch OutputFile.Kind.named(by: path) {
        case .jsonLines: return true
        case .traceFile: return false
        case .html, .json, nil: return OutputFile.startsLikeJSONLines(path)
        }
    }

    /// What a file holds, judged by its content alone: a trace file, a JSON Lines trace, or neither.
    public enum FileContent: Sendable, Equatable {
        /// A trace file: LMDB's magic number where a trace file has it.
        case traceFile
        /// A JSON Lines trace: its first line that is not blank or a `#` comment (within its first
        /// 64 KiB) is a JSON object with an `event` member, or the header `{"format":"lifecycle-trace",…}`.
        case jsonLines
        /// Neither (an empty file, text, another JSON document, a file that cannot be opened).
        case neither
    }

    /// What the file at `path` holds, whatever its name: how `replay FOLDER` tells the traces
    /// among files of other names (`session.json`, `trace`, `spool.log`) from the rest.
    public static func content(of path: String) -> FileContent {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .neither }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 65_536)
        var count = 0
        while count < head.count {
            let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        if count >= 20 {
            let magic = UInt32(head[16]) | UInt32(head[17]) << 8 | UInt32(head[18]) << 16 | UInt32(head[19]) << 24
            if magic == LMDBFileCheck.magic { return .traceFile }
        }
        var start = count >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0
        while start < count {
            var end = start
            while end < count && head[end] != 0x0A { end += 1 }
            var first = start
            while first < end, head[first] == 0x20 || head[first] == 0x09 || head[first] == 0x0D { first += 1 }
            defer { start = end + 1 }
            if first == end || head[first] == UInt8(ascii: "#") { continue }
            guard head[first] == UInt8(ascii: "{") else { return .neither }
            let value = head[first..<end].withUnsafeBufferPointer { try? JSONParser.parse($0) }
            guard case .object(let members)? = value else { return .neither }
            let isTrace = members.contains { member in
                if member.name == "event" { return true }
                if member.name == "format", case .string("lifecycle-trace") = member.value { return true }
                return false
            }
            return isTrace ? .jsonLines : .neither
        }
        return .neither
    }

    /// Throws for a folder where a reader of either format (`.lmdb` or `.jsonl`) takes one trace:
    /// the trace file reader's "name a .lmdb file" would leave out JSON Lines (issue 30: 12).
    package static func refuseFolder(_ path: String) throws {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        throw LifecycleLogError(.io, "is a folder, not a trace; name a trace in it (a .lmdb trace file or a .jsonl JSON Lines trace), "
            + "or pass the folder to `replay` to replay every trace in it", path: path)
    }

    /// The warning for a JSON Lines trace whose last line is torn (no newline
    /// and not valid JSON: what a writer killed mid-line, such as a
    /// `SpoolSink`, leaves), or `nil`. Every reader drops such a line, as
    /// `replay import` does; this says so, naming the line. It reads the file
    /// again only when it does not end in a newline.
    public static func tornFinalRecord(in path: String) -> LifecycleLogError? {
        guard path != "-", isJSONLines(path) else { return nil }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        var last: UInt8 = 0
        let size = lseek(fd, -1, SEEK_END)
        let count = size >= 0 ? read(fd, &last, 1) : 0
        close(fd)
        guard count == 1, last != UInt8(ascii: "\n") else { return nil }
        var found: LifecycleLogError?
        _ = try? JSONLinesDecoder.forEachEvent(inFile: path, tornFinalRecord: { found = $0 }) { _, _, _ in }
        return found
    }

    /// How a reader treats a torn last line of the file at `path`: dropped (the
    /// CLI warns with ``tornFinalRecord(in:)``), except on standard input, which
    /// cannot be read twice to say so, where it stays an error.
    private static func dropTorn(_ path: String) -> ((LifecycleLogError) -> Void)? {
        path == "-" ? nil : { _ in }
    }

    /// Streams every event of the trace at `path` (a `.lmdb` trace file, or a
    /// `.jsonl` trace read directly, nothing written) to `body`, in order,
    /// until `body` returns `false`.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    public static func forEachEvent(in path: String, _ body: (UInt64, LifecycleEvent) throws -> Bool) throws {
        try refuseFolder(path)
        if isJSONLines(path) {
            struct Stop: Error {}
            do {
                try JSONLinesDecoder.forEachEvent(inFile: path, tornFinalRecord: Self.dropTorn(path)) { seq, _, event in
                    if try !body(seq, event) { throw Stop() }
                }
            } catch is Stop {}
        } else {
            try Trace(path: path).forEachEvent(from: 1, body)
        }
    }

    /// Replays the whole trace at `path` and returns what the rules found.
    ///
    /// ```swift
    /// let report = try Replayer.replay("session.lmdb")
    /// if report.errors > 0 { print(report.findings) }
    /// ```
    /// - Parameters:
    ///   - path: a `.lmdb` trace file, or a `.jsonl` trace (read directly, nothing written; a torn
    ///     last line, as a killed writer leaves, is dropped as `replay import` drops it: see
    ///     ``tornFinalRecord(in:)``).
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, run beside the catalogue's (see `LifecycleRule`).
    ///   - progress: called with the number of events replayed so far, every 65,536 events.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, and
    ///   `invalidArgument` when two of `customRules` share an id or one has a catalogue id.
    public static func replay(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              progress: ((UInt64) -> Void)? = nil) throws -> ReplayReport {
        var findings: [Finding] = []
        var report = try replay(path, configuration: configuration, customRules: customRules, progress: progress) { findings.append($0) }
        report.findings = findings
        return report
    }

    /// Replays the trace at `path`, handing each finding to `onFinding` as
    /// soon as it is final, in report order (seq, then rule). Memory stays
    /// that of the reducer's state, however many findings the trace has.
    ///
    /// - Parameters:
    ///   - path: a `.lmdb` trace file, or a `.jsonl` trace (read directly, nothing written; a torn
    ///     last line, as a killed writer leaves, is dropped as `replay import` drops it: see
    ///     ``tornFinalRecord(in:)``).
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, run beside the catalogue's (see `LifecycleRule`).
    ///   - progress: called with the number of events replayed so far, every 65,536 events.
    ///   - onFinding: called with each finding once it is final.
    /// - Returns: the report's counts; its `ReplayReport.findings` is empty.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or what `onFinding` throws;
    ///   `invalidArgument` when two of `customRules` share an id or one has a catalogue id.
    public static func replay(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              progress: ((UInt64) -> Void)? = nil, onFinding: (Finding) throws -> Void) throws -> ReplayReport {
        if isJSONLines(path) {
            return try replay(jsonLines: path, configuration: configuration, customRules: customRules,
                              progress: progress, dropTornFinalRecord: path != "-", onFinding: onFinding)
        }
        var replay = try FindingStream(configuration: configuration, customRules: customRules)
        try PipelinedReplay.forEachBatch(of: path) { batch in
            try replay.apply(batch, progress: progress, onFinding)
        }
        return try replay.finish(trace: path, onFinding)
    }

    /// The main app's state rebuilt just after the event `seq` (or after the last event when
    /// `seq` is `nil`); in a trace of other processes only, the first of them.
    /// ``states(of:at:process:)`` gives every process's.
    ///
    /// - Throws: `LifecycleLogError` `invalidArgument` when there is no event
    ///   `seq` (seqs start at 1), saying how many events the trace has.
    public static func state(of path: String, at seq: UInt64? = nil) throws -> LifecycleState {
        // `!`: states(of:at:process:) gives at least one state.
        try states(of: path, at: seq).first!
    }

    /// Every process's state rebuilt just after the event `seq` (or after the last event when
    /// `seq` is `nil`), each with its `LifecycleState.process`: the main app first, then the
    /// other processes (trace format 2) in the order their first event came. A process that
    /// only recorded marks (a test runner) has no state. With `process`, only that process's
    /// (`""`: the main app). A trace with no event of any process before `seq` gives the main
    /// app's empty state.
    ///
    /// - Throws: `LifecycleLogError` `invalidArgument` when there is no event `seq` (seqs
    ///   start at 1), saying how many events the trace has, or when `process` has no event up
    ///   to `seq`, naming the processes that have.
    public static func states(of path: String, at seq: UInt64? = nil, process: String? = nil) throws -> [LifecycleState] {
        var reducer = LifecycleReducer()
        var count: UInt64 = 0
        var seen: [String] = []
        var known: Set<String> = []
        try forEachEvent(in: path) { eventSeq, event in
            count = eventSeq
            if seq == 0 { return true }  // no such event: only count, for the message
            if seq.map({ eventSeq <= $0 }) ?? true, event.name != "mark", known.insert(event.process ?? "").inserted {
                seen.append(event.process ?? "")
            }
            reducer.apply(seq: eventSeq, event)
            return seq.map { eventSeq < $0 } ?? true
        }
        if let seq, seq == 0 || seq > count {
            let range = count == 0 ? "the trace has no events" : "the trace has \(count) event\(count == 1 ? "" : "s"), seqs 1 to \(count)"
            let advice = count == 0 ? "there is no state to show" : "pass --at with a seq from 1 to \(count) (seqs start at 1)"
            throw LifecycleLogError(.invalidArgument, "there is no event with seq \(seq): \(range); \(advice)", path: path)
        }
        let order = (known.contains("") ? [""] : []) + seen.filter { !$0.isEmpty }
        if let process {
            guard known.contains(process), let state = reducer.state(ofProcess: process) else {
                let names = order.map { $0.isEmpty ? "\"\" (the main app)" : "\"\(VisibleText.escape($0))\"" }
                let upTo = seq.map { " up to seq \($0)" } ?? ""
                throw LifecycleLogError(.invalidArgument, "no event of process \"\(VisibleText.escape(process))\"\(upTo); "
                    + (names.isEmpty ? "the trace has no events of any process there" : "the processes with events: \(names.joined(separator: ", "))"),
                    path: path)
            }
            return [state]
        }
        let states = order.compactMap { reducer.state(ofProcess: $0) }
        return states.isEmpty ? [reducer.state] : states
    }
}
