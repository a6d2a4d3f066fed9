/// Shrinks a recorded session to a small trace that still gives one finding:
/// the engine behind `replay minimize`.
///
/// It is delta debugging over the trace's structure, every candidate replayed
/// in process through ``LifecycleReducer``:
///
/// 1. Cut the end: the shortest prefix in which the rule still fires (binary search).
/// 2. Cut the beginning at a run boundary: the latest launch from which it still fires (binary search).
/// 3. Then, until nothing more can go, remove chunks of halving size (down to
///    one) of: whole processes other than the finding's (every event of a
///    widget or extension, its launches with them), whole runs (a launch with
///    every event of its process up to that process's next launch), whole
///    windows (a window's `open` with every event that names it, in its run),
///    and single events other than launches and opens.
///
/// So a candidate never loses a launch that later events of its run depend
/// on, nor a window's open without all of that window's events; seqs are
/// renumbered (they are positions) and `t` stays as recorded, so it stays
/// monotonic. A candidate in which the reducer sees an event outside a run or
/// for an unknown window (`event-before-launch`, `unknown-window`) where the
/// original trace saw none is rejected, unless that is the rule being kept.
///
/// ```swift
/// let events = try TraceMinimizer.load("session.lmdb")
/// let result = try TraceMinimizer.minimize(events, rule: .lostUpdate)
/// print(result.events.count, result.finding.seq)
/// ```
public enum TraceMinimizer {
    /// What ``minimize(_:rule:seq:configuration:customRules:)`` found.
    public struct Result: Sendable {
        /// The minimal trace's events, in order (seq n is `events[n - 1]`).
        public var events: [LifecycleEvent]
        /// For each kept event, its seq in the original trace.
        public var originalSeqs: [UInt64]
        /// The kept finding, at its seq in the minimal trace.
        public var finding: Finding
        /// Every finding of the minimal trace, sorted by seq then rule.
        public var findings: [Finding]
        /// The number of runs of the minimal trace.
        public var runs: Int
        /// How many candidate traces were replayed.
        public var candidates: Int
        /// The number of events of the original trace.
        public var originalCount: Int
    }

    /// Shrinks `events` to a trace in which `rule` still fires: at the event
    /// that was seq `seq` when `seq` is given, anywhere otherwise.
    ///
    /// The rule's what-if rules are switched on when `rule` is one
    /// (`kill-exposure`), whatever `configuration` says.
    ///
    /// An app's own rule (`customRules`, run beside the catalogue) can be kept too: pass
    /// `.custom(id)` as `rule`.
    ///
    /// - Throws: `LifecycleLogError` `invalidArgument` when the rule does
    ///   not fire in `events` (at `seq`), when `seq` is past the end, when
    ///   `configuration` switches the rule off, or when `customRules` cannot run together.
    public static func minimize(_ events: [LifecycleEvent], rule: Rule, seq: UInt64? = nil,
                                configuration: RuleConfiguration = RuleConfiguration(),
                                customRules: [any LifecycleRule] = []) throws -> Result {
        if let problem = CustomRules.problem(with: customRules) { throw LifecycleLogError(.invalidArgument, problem) }
        if rule.isCustom, !customRules.contains(where: { $0.id == rule.rawValue }) {
            throw LifecycleLogError(.invalidArgument, "no rule \"\(rule.rawValue)\": it is neither in the catalogue nor among the app rules passed")
        }
        var configuration = configuration
        if rule == .killExposure { configuration.explore = true }
        guard configuration.severity(of: rule) != nil else {
            throw LifecycleLogError(.invalidArgument, "the rules file switches \(rule.rawValue) off, so it cannot be kept; switch it on or leave out --rules")
        }
        if let seq, seq == 0 || seq > UInt64(events.count) {
            throw LifecycleLogError(.invalidArgument, "there is no event with seq \(seq): the trace has \(plural(events.count, "event"))")
        }
        var search = Search(events: events, rule: rule, anchor: seq.map { Int($0) - 1 }, configuration: configuration,
                            customRules: customRules)
        if seq == nil {
            // Without --seq, a candidate must keep one of the original's findings of the rule (at the
            // same event), not one that removing events created elsewhere (say, by removing a save).
            search.originalAnchors = Set(search.findings(Array(events.indices)).filter { $0.rule == rule }.map { Int($0.seq) - 1 })
        }
        guard search.fires(Array(events.indices)) else {
            let fired = search.rulesFiring(Array(events.indices))
            let at = seq.map { " at seq \($0)" } ?? ""
            let hint = seq != nil && fired.contains(rule)
                ? "; it fires at other seqs: leave out --seq, or give the seq of one of its findings"
                : fired.isEmpty ? "; the trace has no findings" : "; the trace's findings are of \(fired.map(\.rawValue).joined(separator: ", "))"
            throw LifecycleLogError(.invalidArgument, "\(rule.rawValue) does not fire\(at) in this trace, so there is nothing to keep\(hint)")
        }
        let kept = search.run()
        let minimal = kept.map { events[$0] }
        // `try!`: `customRules` were checked above.
        var reducer = try! LifecycleReducer(configuration: configuration, customRules: customRules)
        for (i, event) in minimal.enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
        reducer.finish()
        let findings = reducer.findings
        let anchorSeq = search.anchor.flatMap { a in kept.firstIndex(of: a) }.map { UInt64($0 + 1) }
        // `!`: the search only ever keeps candidates in which the rule fires (at the anchor, or at
        // an event where the original had it).
        let finding = findings.first { $0.rule == rule && (anchorSeq == nil || $0.seq == anchorSeq)
            && (search.anchor != nil || search.originalAnchors.contains(kept[Int($0.seq) - 1])) }!
        return Result(events: minimal, originalSeqs: kept.map { UInt64($0 + 1) }, finding: finding, findings: findings,
                      runs: reducer.runCount, candidates: search.candidates, originalCount: events.count)
    }
}

/// The search itself: the original events prepared once for the reducer, and
/// the current candidate as indices into them.
private struct Search {
    let rule: Rule
    let anchor: Int?
    let configuration: RuleConfiguration
    let customRules: [any LifecycleRule]
    let count: Int
    /// The events in the reducer's own form, their names interned once.
    let prepared: [ReplayEvent]
    let extras: [ReplayExtra]
    let names: NameTable
    /// The index of each event's run's launch: the last launch of the event's own process before
    /// it (-1 before that process's first launch); the event's window name, and its process.
    let runOf: [Int]
    let windowOf: [Name]
    let processOf: [Name]
    let isLaunch: [Bool], isOpen: [Bool]
    /// The events at which the original trace already has a structural finding (`event-before-launch`, `unknown-window`).
    var structural: Set<Int> = []
    /// Without an anchor: the events at which the original trace has a finding of the rule.
    var originalAnchors: Set<Int> = []
    private(set) var candidates = 0

    init(events: [LifecycleEvent], rule: Rule, anchor: Int?, configuration: RuleConfiguration, customRules: [any LifecycleRule]) {
        self.rule = rule
        self.anchor = anchor
        self.configuration = configuration
        self.customRules = customRules
        count = events.count
        var names = NameTable()
        var extras: [ReplayExtra] = []
        var prepared: [ReplayEvent] = []
        var runOf: [Int] = [], windowOf: [Name] = [], processOf: [Name] = [], isLaunch: [Bool] = [], isOpen: [Bool] = []
        prepared.reserveCapacity(events.count)
        // Each process has runs of its own (trace format 2): a widget's launch does not start a
        // run of the app, so the app's events after it stay in the app's run.
        var run: [Name: Int] = [:]
        for (i, event) in events.enumerated() {
            var extra: ReplayExtra?
            var e = ReplayEvent(event, names: &names, extra: &extra)
            if let extra { e.attach(extra, to: &extras) }
            prepared.append(e)
            if case .launch = event.kind { run[e.process] = i; isLaunch.append(true) } else { isLaunch.append(false) }
            if case .open = event.kind { isOpen.append(true) } else { isOpen.append(false) }
            runOf.append(run[e.process] ?? -1)
            windowOf.append(e.window)
            processOf.append(e.process)
        }
        self.prepared = prepared
        self.extras = extras
        self.names = names
        self.runOf = runOf
        self.windowOf = windowOf
        self.processOf = processOf
        self.isLaunch = isLaunch
        self.isOpen = isOpen
        let all = Array(events.indices)
        structural = Set(findings(all).filter { Self.isStructural($0.rule) && $0.rule != rule }.map { Int($0.seq) - 1 })
        candidates = 0
    }

    static func isStructural(_ rule: Rule) -> Bool { rule == .eventBeforeLaunch || rule == .unknownWindow }

    /// The findings of the candidate `kept` (ascending indices).
    mutating func findings(_ kept: [Int]) -> [Finding] {
        candidates += 1
        // `try!`: `customRules` were checked when the search began.
        var reducer = try! LifecycleReducer(configuration: configuration, customRules: customRules)
        reducer.names = names
        var seq: UInt64 = 1
        for i in kept {
            reducer.apply(seq: seq, prepared[i], extras: extras)
            seq += 1
        }
        reducer.finish()
        return reducer.findings
    }

    func rulesFiring(_ kept: [Int]) -> [Rule] {
        var copy = self
        return Array(Set(copy.findings(kept).map(\.rule))).sorted()
    }

    /// Whether the rule fires in the candidate (at the anchor's new seq, when there is one),
    /// and the candidate is well formed in the ways the reducer checks.
    mutating func fires(_ kept: [Int]) -> Bool {
        var anchorSeq: UInt64?
        if let anchor {
            guard let position = binarySearch(kept, anchor) else { return false }
            anchorSeq = UInt64(position + 1)
        }
        var found = false
        for f in findings(kept) {
            if f.rule == rule, anchorSeq.map({ f.seq == $0 }) ?? originalAnchors.contains(kept[Int(f.seq) - 1]) { found = true }
            if f.rule != rule, Self.isStructural(f.rule), !structural.contains(kept[Int(f.seq) - 1]) { return false }
        }
        return found
    }

    private func binarySearch(_ sorted: [Int], _ value: Int) -> Int? {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == value ? lo : nil
    }

    /// The whole search; returns the kept indices, ascending.
    mutating func run() -> [Int] {
        // 1. The shortest prefix that still fires (the anchor, when given, stays in).
        var lo = (anchor ?? 0) + 1, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if fires(Array(0..<mid)) { hi = mid } else { lo = mid + 1 }
        }
        var kept = Array(0..<hi)
        // 2. The latest run boundary (launch, or the start) from which it still fires.
        var starts = [0]
        for i in kept where isLaunch[i] && i > 0 && (anchor.map { i <= $0 } ?? true) { starts.append(i) }
        var a = 0, b = starts.count - 1  // starts[a] fires; look for the last that does
        while a < b {
            let mid = (a + b + 1) / 2
            if fires(Array(starts[mid]..<hi)) { a = mid } else { b = mid - 1 }
        }
        kept = Array(starts[a]..<hi)
        // 3. Remove processes, runs, windows and single events until none can go.
        var changed = true
        while changed {
            changed = false
            if reduce(&kept, units: processUnits(kept)) { changed = true }
            if reduce(&kept, units: runUnits(kept)) { changed = true }
            if reduce(&kept, units: windowUnits(kept)) { changed = true }
            if reduce(&kept, units: eventUnits(kept)) { changed = true }
        }
        return kept
    }

    /// Processes of `kept`: every event of a process, its launches with them, in the order the
    /// processes first appear (not the anchor's process). A widget that launched while the app's
    /// finding took shape can then go as a whole (issue 30: 8).
    func processUnits(_ kept: [Int]) -> [[Int]] {
        var units: [[Int]] = []
        var slot: [Name: Int] = [:]
        let anchorProcess = anchor.map { processOf[$0] }
        for i in kept where processOf[i] != anchorProcess {
            if let s = slot[processOf[i]] { units[s].append(i) } else { slot[processOf[i]] = units.count; units.append([i]) }
        }
        // Without an anchor the finding's process is among them: with one process, nothing to try.
        return anchor == nil && units.count == 1 ? [] : units
    }

    /// Runs of `kept`: each launch with the events of its process up to that process's next
    /// launch (not the anchor's run).
    func runUnits(_ kept: [Int]) -> [[Int]] {
        var units: [[Int]] = []
        var slot: [Int: Int] = [:]  // a launch's index → its unit
        let anchorRun = anchor.map { runOf[$0] }
        for i in kept {
            if isLaunch[i] { slot[i] = units.count; units.append([]) }
            if runOf[i] >= 0, runOf[i] != anchorRun, let s = slot[runOf[i]] { units[s].append(i) }
        }
        return units.filter { !$0.isEmpty }
    }

    /// Windows of `kept`: per process and run, an open with every event naming its window (not the anchor's).
    func windowUnits(_ kept: [Int]) -> [[Int]] {
        struct Key: Hashable { var process: Name; var run: Int; var window: Name }
        var units: [[Int]] = []
        var slot: [Key: Int] = [:]
        for i in kept where windowOf[i] != ReplayEvent.noWindow {
            let key = Key(process: processOf[i], run: runOf[i], window: windowOf[i])
            if let s = slot[key] { units[s].append(i) } else { slot[key] = units.count; units.append([i]) }
        }
        guard let anchor else { return units }
        return units.filter { !$0.contains(anchor) }
    }

    /// Single events of `kept` other than launches, opens and the anchor.
    func eventUnits(_ kept: [Int]) -> [[Int]] {
        kept.filter { !isLaunch[$0] && !isOpen[$0] && $0 != anchor }.map { [$0] }
    }

    /// Removes chunks of `units` (halving the chunk size down to one unit)
    /// while the rule still fires; returns whether anything went.
    mutating func reduce(_ kept: inout [Int], units: [[Int]]) -> Bool {
        var units = units
        var any = false
        var size = max(1, units.count / 2)
        while !units.isEmpty {
            var start = 0
            while start < units.count {
                let end = min(start + size, units.count)
                var gone = Set<Int>()
                for u in units[start..<end] { gone.formUnion(u) }
                let candidate = kept.filter { !gone.contains($0) }
                if candidate.count < kept.count, fires(candidate) {
                    kept = candidate
                    units.removeSubrange(start..<end)
                    any = true
                } else {
                    start = end
                }
            }
            if size == 1 { break }
            size = max(1, size / 2)
        }
        return any
    }
}

extension TraceMinimizer.Result {
    /// The minimal trace as a JSON Lines fixture: the header, two comment
    /// lines saying where it came from and what it keeps, then one event a line.
    ///
    /// - Parameters:
    ///   - source: the original trace's name, for the comment.
    ///   - explore: whether the fixture must be replayed with `--explore`.
    public func jsonLines(source: String, explore: Bool = false) -> String {
        let name = String(String.UnicodeScalarView(ExpectedReport.fileName(source).unicodeScalars.filter {
            $0.value >= 0x20 && $0.value != 0x7F && $0.value != 0x2028 && $0.value != 0x2029 }))
        let original = originalSeqs[Int(finding.seq) - 1]
        let version = events.contains(where: \.needsFormatVersion2) ? 2 : 1
        var text = "{\"format\":\"lifecycle-trace\",\"version\":\(version)}\n"
        let listed = originalSeqs.prefix(40).map(String.init).joined(separator: ", ") + (originalSeqs.count > 40 ? ", …" : "")
        text += "# Minimized by replay minimize from \(name): \(events.count) of its \(plural(originalCount, "event")) (its seqs \(listed)).\n"
        text += "# Expected: \(finding.rule.rawValue) (\(finding.severity.rawValue)) at seq \(finding.seq), seq \(original) of the original\(explore ? "; replay with --explore" : "").\n"
        for event in events { text += event.jsonLine + "\n" }
        return text
    }

    /// The expected report of the fixture at `fixture` (what `replay FIXTURE
    /// --expect … --update-expected` writes), recording `options`: `explore`
    /// for a finding of a what-if rule, and the rules file the minimizer ran with.
    public func expectedReport(fixture: String, options: ExpectedReport.Options = ExpectedReport.Options()) -> String {
        ExpectedReport.render(ReplayReport(trace: fixture, events: UInt64(events.count), runs: runs, findings: findings), options: options)
    }
}
