import LifecycleLogRecorder

/// Replays events through a ``LifecycleReducer`` and returns what the rules found: events in
/// memory (a test's, a `MemorySink`'s) and JSON Lines traces (a `SpoolSink`'s file, a `.jsonl`
/// fixture). Needs no C library, so it runs inside an app and in its tests on every Apple
/// platform. `LifecycleLog` adds `.lmdb` trace files (``Replayer`` there takes any trace path).
public enum Replayer {
    /// Replays `events` (seq n is the nth element) and returns what the rules found.
    ///
    /// ```swift
    /// let report = try Replayer.replay(events: sink.events, trace: "session")
    /// #expect(report.errors == 0)
    /// ```
    /// - Parameters:
    ///   - events: the session's events, in the order they were recorded.
    ///   - trace: the name the report gives the session (``ReplayReport/trace``).
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, run beside the catalogue's (see ``LifecycleRule``).
    /// - Throws: `LifecycleLogError` `invalidArgument` when two of `customRules` share an id or one
    ///   has a catalogue id.
    public static func replay(events: some Sequence<LifecycleEvent>, trace: String = "events",
                              configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = []) throws -> ReplayReport {
        var findings: [Finding] = []
        var report = try replay(events: events, trace: trace, configuration: configuration, customRules: customRules) {
            findings.append($0)
        }
        report.findings = findings
        return report
    }

    /// Replays `events`, handing each finding to `onFinding` as soon as it is final, in report
    /// order (seq, then rule).
    ///
    /// - Returns: the report's counts; its ``ReplayReport/findings`` is empty.
    /// - Throws: what `onFinding` throws, or `invalidArgument` for `customRules` as
    ///   ``replay(events:trace:configuration:customRules:)`` says.
    public static func replay(events: some Sequence<LifecycleEvent>, trace: String = "events",
                              configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              onFinding: (Finding) throws -> Void) throws -> ReplayReport {
        var replay = try FindingStream(configuration: configuration, customRules: customRules)
        var seq: UInt64 = 0
        for event in events {
            seq += 1
            try replay.apply(seq: seq, event, onFinding)
        }
        return try replay.finish(trace: trace, onFinding)
    }

    /// Replays the JSON Lines trace at `path` (a `.jsonl` fixture, a `SpoolSink`'s file, `-` for
    /// standard input) and returns what the rules found. Each finding carries the file line of
    /// its event (``Finding/line``).
    ///
    /// - Parameters:
    ///   - path: the trace's path (`-`: standard input).
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, run beside the catalogue's (see ``LifecycleRule``).
    ///   - dropTornFinalRecord: whether a torn last line (no newline and not valid JSON, what a
    ///     writer killed mid-line leaves) is dropped, as `replay import` drops it, rather than
    ///     refused.
    /// - Throws: `LifecycleLogError` for a missing or malformed trace, naming the line.
    public static func replay(jsonLines path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [], dropTornFinalRecord: Bool = true) throws -> ReplayReport {
        var findings: [Finding] = []
        var report = try replay(jsonLines: path, configuration: configuration, customRules: customRules,
                                dropTornFinalRecord: dropTornFinalRecord) { findings.append($0) }
        report.findings = findings
        return report
    }

    /// Replays the JSON Lines trace at `path`, handing each finding, with its file line, to
    /// `onFinding` as soon as it is final, in report order. Memory stays that of the reducer's
    /// state, however long the trace.
    ///
    /// - Parameters:
    ///   - path: the trace's path (`-`: standard input).
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, run beside the catalogue's (see ``LifecycleRule``).
    ///   - progress: called with the number of events replayed so far, every 65,536 events.
    ///   - dropTornFinalRecord: whether a torn last line is dropped rather than refused (see
    ///     ``replay(jsonLines:configuration:customRules:dropTornFinalRecord:)``).
    ///   - onFinding: called with each finding once it is final.
    /// - Returns: the report's counts; its ``ReplayReport/findings`` is empty.
    /// - Throws: `LifecycleLogError` for a missing or malformed trace, or what `onFinding` throws.
    public static func replay(jsonLines path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              progress: ((UInt64) -> Void)? = nil, dropTornFinalRecord: Bool = true,
                              onFinding: (Finding) throws -> Void) throws -> ReplayReport {
        // Findings of a JSON Lines trace carry the file line of their event.
        var lines = LineMap()
        var replay = try FindingStream(configuration: configuration, customRules: customRules)
        func located(_ f: Finding) throws {
            var located = f
            located.line = lines.line(of: f.seq)
            try onFinding(located)
        }
        try JSONLinesDecoder.forEachEvent(inFile: path, tornFinalRecord: dropTornFinalRecord ? { _ in } : nil) { seq, line, event in
            lines.note(seq: seq, line: line)
            try replay.apply(seq: seq, event, located)
            if lines.needsPruning { lines.forget(below: replay.reducer.watermark(after: seq)) }
            if let progress, seq & 0xFFFF == 0 { progress(seq) }
        }
        return try replay.finish(trace: path, located)
    }
}

/// A reducer whose settled findings are counted as they are handed on: the fold every replay
/// shares (events in memory, JSON Lines, a live check, and `.lmdb` batches in `LifecycleLog`).
package struct FindingStream {
    package var reducer: LifecycleReducer
    private var errors = 0
    private var warnings = 0

    package init(configuration: RuleConfiguration, customRules: [any LifecycleRule]) throws {
        reducer = try LifecycleReducer(configuration: configuration, customRules: customRules)
    }

    /// Folds the event `seq` and hands what settled to `onFinding`.
    package mutating func apply(seq: UInt64, _ event: LifecycleEvent, _ onFinding: (Finding) throws -> Void) throws {
        reducer.apply(seq: seq, event)
        if !reducer.findings.isEmpty { try hand(reducer.takeSettledFindings(), onFinding) }
    }

    /// Folds every event of a decoded batch (a `.lmdb` trace's) and hands what settled to `onFinding`.
    package mutating func apply(_ batch: borrowing ReplayBatch, progress: ((UInt64) -> Void)?,
                                _ onFinding: (Finding) throws -> Void) throws {
        // Counted in locals: the reducer is being modified while the findings are handed on.
        var errors = 0, warnings = 0
        defer {
            self.errors += errors
            self.warnings += warnings
        }
        try reducer.apply(batch, progress: progress) { try Self.hand($0, onFinding, errors: &errors, warnings: &warnings) }
    }

    private mutating func hand(_ findings: [Finding], _ onFinding: (Finding) throws -> Void) throws {
        try Self.hand(findings, onFinding, errors: &errors, warnings: &warnings)
    }

    private static func hand(_ findings: [Finding], _ onFinding: (Finding) throws -> Void,
                             errors: inout Int, warnings: inout Int) throws {
        for f in findings {
            if f.severity == .error { errors += 1 } else { warnings += 1 }
            try onFinding(f)
        }
    }

    /// Ends the trace (the rules' end-of-trace findings), hands them on and returns the report's counts.
    package mutating func finish(trace: String, _ onFinding: (Finding) throws -> Void) throws -> ReplayReport {
        reducer.finish()
        try hand(reducer.takeSettledFindings(), onFinding)
        return ReplayReport(trace: trace, events: reducer.eventCount, runs: reducer.runCount, findings: [],
                            errors: errors, warnings: warnings)
    }
}
