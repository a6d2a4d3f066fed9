/// Counts that describe a trace (`replay stats`): events per kind, runs,
/// windows, time span, and findings per rule; for a trace of several processes
/// (trace format 2), the counts of each process too.
public struct TraceStatistics: Sendable {
    /// The counts of one process.
    public struct ProcessStatistics: Sendable, Hashable {
        /// The process: `""` for the main app, else the events' `process`.
        public var process: String
        /// Its events (its marks included).
        public var events: UInt64
        /// Its runs (launches).
        public var runs: Int
        /// Its runs that ended with `terminate`.
        public var cleanRuns: Int
        /// Its windows opened.
        public var windowsOpened: Int
        /// The most of its windows open at once.
        public var mostWindowsOpen: Int
        /// Its findings (anchored at its events), by severity.
        public var errors: Int, warnings: Int
    }

    /// The trace's path, as given.
    public var trace: String
    /// The process the counts are restricted to (`replay stats --process`), or `nil` for all.
    public var process: String?
    /// The number of events.
    public var events: UInt64
    /// Events per kind name, sorted by name.
    public var eventsPerKind: [(kind: String, count: UInt64)]
    /// The number of runs (launches).
    public var runs: Int
    /// Runs that ended with `terminate`.
    public var cleanRuns: Int
    /// Windows opened (open events that opened a window), in every process.
    public var windowsOpened: Int
    /// The most windows open at once, the windows of every process together.
    public var mostWindowsOpen: Int
    /// `t` of the first and last events (0 for an empty trace).
    public var firstTime: Double, lastTime: Double
    /// Findings per rule, sorted by rule id.
    public var findingsPerRule: [(rule: Rule, severity: Severity, count: Int)]
    /// Each process's counts: the main app first, then the others in the order their first
    /// event came (only the one asked for with ``process``).
    public var processes: [ProcessStatistics]

    /// Gathers the statistics of the trace at `path` in one streaming pass; with `process`
    /// (`""`: the main app), of that process's events and findings only.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or
    ///   `invalidArgument` when `process` has no event in the trace (naming the processes that have)
    ///   or `customRules` (an app's own rules, counted beside the catalogue's) cannot run together.
    public static func gather(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              process: String? = nil) throws -> TraceStatistics {
        var reducer = try LifecycleReducer(configuration: configuration, appRules: customRules)
        var perKind: [String: UInt64] = [:]
        var first: Double?
        var last: Double = 0
        var perRule: [Rule: (Severity, Int)] = [:]
        var processes: [ProcessStatistics] = []
        var index: [String: Int] = [:]
        var open: [Int] = []  // each process's windows open after its last event
        var openNow = 0, most = 0
        // The process of each seq, once a second process appears (before that, every seq is the first's).
        var processOfSeq: [UInt32] = []
        func processAt(_ seq: UInt64) -> Int { seq >= 1 && seq <= UInt64(processOfSeq.count) ? Int(processOfSeq[Int(seq - 1)]) : 0 }
        func count(_ findings: [Finding]) {
            for f in findings {
                let p = processAt(f.seq)
                if f.severity == .error { processes[p].errors += 1 } else { processes[p].warnings += 1 }
                if let process, processes[p].process != process { continue }
                perRule[f.rule] = (f.severity, (perRule[f.rule]?.1 ?? 0) + 1)
            }
        }
        try Replayer.forEachEvent(in: path) { seq, event in
            let name = event.process ?? ""
            let p: Int
            if let known = index[name] {
                p = known
            } else {
                p = processes.count
                index[name] = p
                processes.append(ProcessStatistics(process: name, events: 0, runs: 0, cleanRuns: 0, windowsOpened: 0,
                                                   mostWindowsOpen: 0, errors: 0, warnings: 0))
                open.append(0)
            }
            if p > 0 || !processOfSeq.isEmpty {
                while UInt64(processOfSeq.count) < seq - 1 { processOfSeq.append(0) }
                processOfSeq.append(UInt32(p))
            }
            let counted = process.map { $0 == name } ?? true
            if counted {
                if first == nil { first = event.t }
                last = event.t
                perKind[event.name, default: 0] += 1
            }
            processes[p].events += 1
            reducer.apply(seq: seq, event)
            if case .mark = event.kind {} else {
                // The reducer's model is now this process's: a change of process opens no window.
                if case .launch = event.kind { processes[p].runs += 1 }
                if case .terminate = event.kind, reducer.run.terminateSeq == seq { processes[p].cleanRuns += 1 }
                let now = reducer.openWindows.count
                if now > open[p] { processes[p].windowsOpened += now - open[p] }
                openNow += now - open[p]
                open[p] = now
                processes[p].mostWindowsOpen = max(processes[p].mostWindowsOpen, now)
                most = max(most, openNow)
            }
            if !reducer.findings.isEmpty { count(reducer.takeSettledFindings()) }
            return true
        }
        reducer.finish()
        count(reducer.takeSettledFindings())
        // The main app first, then the others in the order they came.
        if let main = index[""], main > 0 { processes.insert(processes.remove(at: main), at: 0) }
        if let process {
            guard let one = processes.first(where: { $0.process == process }) else {
                let names = processes.map { $0.process.isEmpty ? "\"\" (the main app)" : "\"\(VisibleText.escape($0.process))\"" }
                throw LifecycleLogError(.invalidArgument, "no event of process \"\(VisibleText.escape(process))\" in the trace; "
                    + (names.isEmpty ? "the trace has no events" : "the processes with events: \(names.joined(separator: ", "))"),
                    path: path)
            }
            processes = [one]
            most = one.mostWindowsOpen
        }
        return TraceStatistics(
            trace: path, process: process, events: processes.reduce(0) { $0 + $1.events },
            eventsPerKind: perKind.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, perKind[$0] ?? 0) },
            runs: processes.reduce(0) { $0 + $1.runs }, cleanRuns: processes.reduce(0) { $0 + $1.cleanRuns },
            windowsOpened: processes.reduce(0) { $0 + $1.windowsOpened }, mostWindowsOpen: most,
            firstTime: first ?? 0, lastTime: last,
            findingsPerRule: perRule.keys.sorted().map { ($0, perRule[$0]?.0 ?? .warning, perRule[$0]?.1 ?? 0) },
            processes: processes)
    }

    /// The statistics as aligned text.
    public func text() -> String {
        var out = "\(VisibleText.escape(trace))"
        if let process { out += process.isEmpty ? " (the app, main process)" : " (process \"\(VisibleText.escape(process))\")" }
        out += "\n"
        var rows: [[String]] = [["events", String(events)],
                                ["runs", "\(runs) (\(cleanRuns) ended with terminate)"],
                                ["windows opened", "\(windowsOpened) (at most \(mostWindowsOpen) at once)"],
                                ["time span", "\(JSONWriter.number(firstTime)) to \(JSONWriter.number(lastTime)) ms (\(Self.duration(lastTime - firstTime)))"]]
        out += LifecycleState.align(rows)
        out += "\n"
        if process == nil && processes.count > 1 {
            rows = [["PROCESS", "EVENTS", "RUNS", "CLEAN", "WINDOWS OPENED", "MOST AT ONCE", "ERRORS", "WARNINGS"]]
            for p in processes {
                rows.append([p.process.isEmpty ? "(main app)" : p.process, String(p.events), String(p.runs), String(p.cleanRuns),
                             String(p.windowsOpened), String(p.mostWindowsOpen), String(p.errors), String(p.warnings)])
            }
            out += LifecycleState.align(rows)
            out += "\n"
        }
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
        if let process { raw(",\"process\":"); JSONWriter.writeString(process, into: &out) }
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
        raw("},\"processes\":[")
        for (i, p) in processes.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"process\":"); JSONWriter.writeString(p.process, into: &out)
            raw(",\"events\":\(p.events),\"runs\":\(p.runs),\"cleanRuns\":\(p.cleanRuns),\"windowsOpened\":\(p.windowsOpened)")
            raw(",\"mostWindowsOpen\":\(p.mostWindowsOpen),\"errors\":\(p.errors),\"warnings\":\(p.warnings)}")
        }
        raw("]}\n")
        return String(decoding: out, as: UTF8.self)
    }

    static func duration(_ ms: Double) -> String {
        if ms >= 3_600_000 { return "\(JSONWriter.number((ms / 360_000).rounded() / 10)) h" }
        if ms >= 60_000 { return "\(JSONWriter.number((ms / 6_000).rounded() / 10)) min" }
        if ms >= 1000 { return "\(JSONWriter.number((ms / 100).rounded() / 10)) s" }
        return "\(JSONWriter.number(ms)) ms"
    }
}
