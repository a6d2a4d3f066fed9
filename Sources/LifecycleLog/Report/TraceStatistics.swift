/// Counts that describe a trace (`replay stats`): events per kind, runs,
/// windows, time span, and findings per rule.
public struct TraceStatistics: Sendable {
    /// The trace's path, as given.
    public var trace: String
    /// The number of events.
    public var events: UInt64
    /// Events per kind name, sorted by name.
    public var eventsPerKind: [(kind: String, count: UInt64)]
    /// The number of runs (launches).
    public var runs: Int
    /// Runs that ended with `terminate`.
    public var cleanRuns: Int
    /// Windows opened (open events that opened a window).
    public var windowsOpened: Int
    /// The most windows open at once.
    public var mostWindowsOpen: Int
    /// `t` of the first and last events (0 for an empty trace).
    public var firstTime: Double, lastTime: Double
    /// Findings per rule, sorted by rule id.
    public var findingsPerRule: [(rule: Rule, severity: Severity, count: Int)]

    /// Gathers the statistics of the trace at `path` in one streaming pass.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    public static func gather(_ path: String, configuration: RuleConfiguration = RuleConfiguration()) throws -> TraceStatistics {
        var reducer = LifecycleReducer(configuration: configuration)
        var perKind: [String: UInt64] = [:]
        var first: Double?
        var last: Double = 0
        var clean = 0
        var opened = 0
        var most = 0
        var perRule: [Rule: (Severity, Int)] = [:]
        func count(_ findings: [Finding]) {
            for f in findings { perRule[f.rule] = (f.severity, (perRule[f.rule]?.1 ?? 0) + 1) }
        }
        try Replayer.forEachEvent(in: path) { seq, event in
            if first == nil { first = event.t }
            last = event.t
            perKind[event.name, default: 0] += 1
            let before = reducer.openWindows.count
            reducer.apply(seq: seq, event)
            if case .terminate = event.kind, reducer.run.terminateSeq == seq { clean += 1 }
            if reducer.openWindows.count > before { opened += 1 }
            most = max(most, reducer.openWindows.count)
            if !reducer.findings.isEmpty { count(reducer.takeSettledFindings()) }
            return true
        }
        reducer.finish()
        count(reducer.takeSettledFindings())
        return TraceStatistics(
            trace: path, events: reducer.eventCount,
            eventsPerKind: perKind.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, perKind[$0] ?? 0) },
            runs: reducer.runCount, cleanRuns: clean, windowsOpened: opened, mostWindowsOpen: most,
            firstTime: first ?? 0, lastTime: last,
            findingsPerRule: perRule.keys.sorted().map { ($0, perRule[$0]?.0 ?? .warning, perRule[$0]?.1 ?? 0) })
    }

    /// The statistics as aligned text.
    public func text() -> String {
        var out = "\(VisibleText.escape(trace))\n"
        var rows: [[String]] = [["events", String(events)],
                                ["runs", "\(runs) (\(cleanRuns) ended with terminate)"],
                                ["windows opened", "\(windowsOpened) (at most \(mostWindowsOpen) at once)"],
                                ["time span", "\(JSONWriter.number(firstTime)) to \(JSONWriter.number(lastTime)) ms (\(Self.duration(lastTime - firstTime)))"]]
        out += LifecycleState.align(rows)
        out += "\n"
        rows = [["EVENT", "COUNT"]] + eventsPerKind.map { [$0.kind, String($0.count)] }
        out += LifecycleState.align(rows)
        out += "\n"
        if findingsPerRule.isEmpty {
            out += "no findings\n"
        } else {
            rows = [["RULE", "SEVERITY", "FINDINGS"]] + findingsPerRule.map { [$0.rule.rawValue, $0.severity.rawValue, String($0.count)] }
            out += LifecycleState.align(rows)
        }
        return out
    }

    /// The statistics as one JSON object.
    public func json() -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"trace\":"); JSONWriter.writeString(trace, into: &out)
        raw(",\"events\":\(events),\"runs\":\(runs),\"cleanRuns\":\(cleanRuns),\"windowsOpened\":\(windowsOpened),\"mostWindowsOpen\":\(mostWindowsOpen)")
        raw(",\"firstTime\":\(JSONWriter.number(firstTime)),\"lastTime\":\(JSONWriter.number(lastTime)),\"eventsPerKind\":{")
        for (i, k) in eventsPerKind.enumerated() {
            if i > 0 { raw(",") }
            JSONWriter.writeString(k.kind, into: &out); raw(":\(k.count)")
        }
        raw("},\"findingsPerRule\":{")
        for (i, r) in findingsPerRule.enumerated() {
            if i > 0 { raw(",") }
            raw("\"\(r.rule.rawValue)\":\(r.count)")
        }
        raw("}}\n")
        return String(decoding: out, as: UTF8.self)
    }

    static func duration(_ ms: Double) -> String {
        if ms >= 3_600_000 { return "\(JSONWriter.number((ms / 360_000).rounded() / 10)) h" }
        if ms >= 60_000 { return "\(JSONWriter.number((ms / 6_000).rounded() / 10)) min" }
        if ms >= 1000 { return "\(JSONWriter.number((ms / 100).rounded() / 10)) s" }
        return "\(JSONWriter.number(ms)) ms"
    }
}
