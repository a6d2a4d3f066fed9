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
    /// A trace file is read as `replay TRACE` reads it (events decoded in batches, into the
    /// reducer's form, on a reader thread), so that the counts cost little more than the replay.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or
    ///   `invalidArgument` when `process` has no event in the trace (naming the processes that have)
    ///   or `customRules` (an app's own rules, counted beside the catalogue's) cannot run together.
    public static func gather(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [],
                              process: String? = nil) throws -> TraceStatistics {
        var reducer = try LifecycleReducer(configuration: configuration, customRules: customRules)
        var tally = Tally(only: process)
        if Replayer.isJSONLines(path) {
            try Replayer.forEachEvent(in: path) { seq, event in
                let p = tally.process(named: event.process ?? "")
                reducer.apply(seq: seq, event)
                let tag = event.tag
                tally.note(seq: seq, process: p, t: event.t, tag: tag, unknownKind: tag == .unknown ? event.name : nil,
                           openWindows: tag == .mark ? 0 : reducer.openWindows.count,
                           endedRunCleanly: tag == .terminate && reducer.run.terminateSeq == seq)
                if !reducer.findings.isEmpty { tally.count(reducer.takeSettledFindings()) }
                return true
            }
        } else {
            try PipelinedReplay.forEachBatch(of: path) { batch in
                let symbols = batch.symbols
                try reducer.apply(batch, observe: { step in
                    let event = step.event
                    let p = tally.process(event.process, symbols: symbols)
                    tally.note(seq: step.seq, process: p, t: event.t, tag: event.kind,
                               unknownKind: event.kind == .unknown ? symbols[Int(event.name)] : nil,
                               openWindows: step.openWindows, endedRunCleanly: step.endedRunCleanly)
                }, settled: { tally.count($0) })
            }
        }
        reducer.finish()
        tally.count(reducer.takeSettledFindings())
        var processes = tally.processes
        var most = tally.most
        // The main app first, then the others in the order they came.
        if let main = tally.processIndex.existingIndex(of: ""), main > 0 { processes.insert(processes.remove(at: main), at: 0) }
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
        let perKind = tally.eventsPerKind()
        let perRule = tally.perRule
        return TraceStatistics(
            trace: path, process: process, events: processes.reduce(0) { $0 + $1.events },
            eventsPerKind: perKind.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, perKind[$0] ?? 0) },
            runs: processes.reduce(0) { $0 + $1.runs }, cleanRuns: processes.reduce(0) { $0 + $1.cleanRuns },
            windowsOpened: processes.reduce(0) { $0 + $1.windowsOpened }, mostWindowsOpen: most,
            firstTime: tally.first ?? 0, lastTime: tally.last,
            findingsPerRule: perRule.keys.sorted().map { ($0, perRule[$0]?.0 ?? .warning, perRule[$0]?.1 ?? 0) },
            processes: processes)
    }

    /// The counts as the events go by: the same for a trace file's batches and a JSON Lines
    /// trace's events. Each event costs a few array updates, no hashing and no string.
    private struct Tally {
        /// The process counted (`gather`'s `process`), or `nil` for all.
        let only: String?
        var processes: [ProcessStatistics] = []
        /// Each process's place in ``processes``.
        var processIndex = ProcessIndex()
        /// Whether each process's events and findings are counted (``only``).
        var counted: [Bool] = []
        /// Each process's windows open after its last event.
        var open: [Int] = []
        var openNow = 0, most = 0
        var first: Double?
        var last: Double = 0
        /// Events per kind, by the stored tag; unknown kinds by name.
        var perTag = [UInt64](repeating: 0, count: 256)
        var perUnknownKind: [String: UInt64] = [:]
        var perRule: [Rule: (Severity, Int)] = [:]
        /// Where the process changes: the seq of the first event of each stretch of one process's
        /// events and that process, once a second process appears (before that, every event is the first's).
        var stretchStarts: [UInt64] = []
        var stretchProcesses: [Int] = []
        var lastProcess = 0
        var lastSeq: UInt64 = 0

        init(only: String?) { self.only = only }

        /// The place of the process `name`, added when it is new.
        mutating func process(named name: String) -> Int {
            added(processIndex.index(of: name))
        }

        /// The place of the process of a trace file's event (`process` as decoded, `symbols` its
        /// batch's names), added when it is new.
        @inline(__always)
        mutating func process(_ process: Name, symbols: [String]) -> Int {
            added(processIndex.index(of: process, symbols: symbols))
        }

        /// The place `found` of ``processIndex``, with the process's counts added when it is new.
        @inline(__always)
        mutating func added(_ found: (index: Int, isNew: Bool)) -> Int {
            guard found.isNew else { return found.index }
            let name = processIndex.names[found.index]
            processes.append(ProcessStatistics(process: name, events: 0, runs: 0, cleanRuns: 0, windowsOpened: 0,
                                               mostWindowsOpen: 0, errors: 0, warnings: 0))
            counted.append(only.map { $0 == name } ?? true)
            open.append(0)
            return found.index
        }

        /// Counts the event `seq` of process `p`, after the reducer applied it: `openWindows` is
        /// what the reducer's model (this process's, but for a `mark`) then holds.
        @inline(__always)
        mutating func note(seq: UInt64, process p: Int, t: Double, tag: EventTag, unknownKind: String?,
                           openWindows now: Int, endedRunCleanly: Bool) {
            if p != lastProcess {
                stretchStarts.append(seq)
                stretchProcesses.append(p)
                lastProcess = p
            }
            lastSeq = seq
            if counted[p] {
                if first == nil { first = t }
                last = t
                if let unknownKind { perUnknownKind[unknownKind, default: 0] += 1 } else { perTag[Int(tag.rawValue)] += 1 }
            }
            processes[p].events += 1
            guard tag != .mark else { return }
            // The reducer's model is now this process's: a change of process opens no window.
            if tag == .launch { processes[p].runs += 1 }
            if endedRunCleanly { processes[p].cleanRuns += 1 }
            let before = open[p]
            if now > before { processes[p].windowsOpened += now - before }
            openNow += now - before
            open[p] = now
            if now > processes[p].mostWindowsOpen { processes[p].mostWindowsOpen = now }
            if openNow > most { most = openNow }
        }

        /// The process of the event `seq` (0 for a seq not yet seen).
        func process(at seq: UInt64) -> Int {
            guard seq >= 1, seq <= lastSeq else { return 0 }
            // The last stretch that starts at or before seq.
            var low = 0, high = stretchStarts.count
            while low < high {
                let mid = (low + high) / 2
                if stretchStarts[mid] <= seq { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? 0 : stretchProcesses[low - 1]
        }

        mutating func count(_ findings: [Finding]) {
            for f in findings {
                let p = process(at: f.seq)
                if f.severity == .error { processes[p].errors += 1 } else { processes[p].warnings += 1 }
                guard counted[p] else { continue }
                perRule[f.rule] = (f.severity, (perRule[f.rule]?.1 ?? 0) + 1)
            }
        }

        /// Events per kind name.
        func eventsPerKind() -> [String: UInt64] {
            var perKind = perUnknownKind
            for (raw, count) in perTag.enumerated() where count > 0 {
                // `!`: only stored tags were counted.
                perKind[EventTag(rawValue: UInt8(raw))!.name, default: 0] += count
            }
            return perKind
        }
    }

    /// The statistics as aligned text.
    public func text() -> String {
        var out = "\(VisibleText.escape(trace))"
        if let process { out += process.isEmpty ? " (the app, main process)" : " (process \"\(VisibleText.escape(process))\")" }
        out += "\n"
        var rows: [[String]] = [["events", String(events)],
                                ["runs", "\(runs) (\(cleanRuns) ended with terminate)"],
                                ["windows opened", "\(windowsOpened) (at most \(mostWindowsOpen) at once)"],
                                // An empty trace has no time span, and no events to count per kind (issue 30: 12).
                                ["time span", events == 0 ? "none (no events)"
                                    : "\(JSONWriter.number(firstTime)) to \(JSONWriter.number(lastTime)) ms (\(Self.duration(lastTime - firstTime)))"]]
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
        if !eventsPerKind.isEmpty {
            rows = [["EVENT", "COUNT"]] + eventsPerKind.map { [$0.kind, String($0.count)] }
            out += LifecycleState.align(rows)
            out += "\n"
        }
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
