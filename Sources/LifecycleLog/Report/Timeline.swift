/// What a lifecycle trace looked like over time: the model behind
/// `replay report`'s HTML timeline.
///
/// Lanes are grouped by process (trace format 2: an app and its extensions),
/// in the order the processes first appear: every process with an event, as
/// `replay stats` counts them, a process that only marks (a UI-test runner)
/// included. In each process, windows are
/// packed into rows (a row holds one window at a time, so there are as many
/// rows as windows of that process were ever open at once), each with its
/// phase over time; the process's app phase has a lane of its own. Long traces are quantised
/// to a fixed grid (see ``buckets``), so the model's size is bounded whatever
/// the trace's length.
public struct Timeline: Sendable {
    /// A stretch of one lane in one phase.
    public struct Segment: Sendable, Hashable {
        /// The process: an index into ``processes``.
        public var process: Int
        /// The lane in that process: -1 for its app phase, else a window row of that process.
        public var row: Int
        /// Start and end, in ms of `t`.
        public var start: Double, end: Double
        /// The phase.
        public var phase: LifecyclePhase
        /// Index into ``labels``: which window (and scene, value) this is.
        public var label: Int
    }

    /// Something that happened at a point in time.
    public struct Mark: Sendable, Hashable {
        /// What happened.
        public enum Kind: String, Sendable {
            /// A window appeared.
            case open
            /// A window went away.
            case dismiss
            /// A state key was written.
            case write
            /// State was saved.
            case save
            /// A run began.
            case launch
            /// A run ended cleanly.
            case terminate
            /// A run ended without `terminate` (at its last event): killed, crashed or reclaimed.
            case uncleanEnd
            /// A run ended with a `kill` (trace format 2): the trace says who ended it.
            case kill
            /// A `mark` event: a note from the app or a test runner, with its ``Mark/label``.
            case mark
        }
        /// What happened.
        public var kind: Kind
        /// The process: an index into ``processes``.
        public var process: Int
        /// The lane in that process (-1: its app lane; run boundaries span every lane of the process).
        public var row: Int
        /// When, in ms of `t`.
        public var t: Double
        /// How many such events this mark stands for (more than one after quantising).
        public var count: Int
        /// The first seq it stands for.
        public var seq: UInt64
        /// For a ``Kind/mark``: its text (the first of those it stands for), an index into
        /// ``Timeline/labels``, at most ``Timeline/maxMarkLabel`` characters; -1 for other kinds.
        public var label: Int = -1
    }

    /// A finding placed on the timeline.
    public struct Placed: Sendable, Hashable {
        /// The finding.
        public var finding: Finding
        /// The `t` of the event it is anchored at.
        public var t: Double
        /// The process of that event: an index into ``processes``.
        public var process: Int
        /// The lane of that event's window in its process, or -1 for the process's app lane.
        public var row: Int
    }

    /// Findings of one rule and severity in one stretch of the trace, counted
    /// rather than placed one by one (a long trace's findings past
    /// ``maxDetailedFindings`` warnings or ``maxPlacedErrors`` errors).
    public struct Aggregate: Sendable, Hashable {
        /// The rule.
        public var rule: Rule
        /// The severity.
        public var severity: Severity
        /// How many findings it stands for.
        public var count: Int
        /// The seq of the first and of the last of them.
        public var firstSeq: UInt64, lastSeq: UInt64
        /// The `t` of the events at ``firstSeq`` and ``lastSeq``.
        public var start: Double, end: Double
    }

    /// The trace's path, as given.
    public var trace: String
    /// The number of events.
    public var events: UInt64
    /// The number of runs.
    public var runs: Int
    /// The `t` of the first event.
    public var startTime: Double
    /// The `t` of the last event.
    public var endTime: Double
    /// The number of window rows, of every process together.
    public var rows: Int
    /// The processes, in the order they first appear: `""` for the main app,
    /// else the events' `process` (trace format 2).
    public var processes: [String]
    /// What each process is called on the page: the main app by its launch's
    /// `app` (or "app"), another process by its name.
    public var processNames: [String]
    /// The number of window rows of each process (same order as ``processes``).
    public var processRows: [Int]
    /// Window labels (`"w1 · note 42"`), indexed by ``Segment/label``, and the texts of
    /// `mark` events, indexed by ``Mark/label``.
    public var labels: [String]
    /// Phase bands, per lane in time order.
    public var segments: [Segment]
    /// Opens, dismisses, writes, saves, run boundaries and `mark` events, in stream order.
    ///
    /// Bounded as the segments are: a trace of up to ``exactLimit`` events has one entry
    /// per tick (a few per event at most); past it, the ticks of one kind in one lane and
    /// one time bucket are one entry with their count and first seq, so there are at most
    /// (``bucketCount`` + 2) entries per kind and lane, however long the trace. A `mark`
    /// event's entry keeps the text of the first mark it stands for, cut to
    /// ``maxMarkLabel`` characters, so the texts are bounded too (a 1M-event trace's
    /// 11,606 marks are 4,877 entries, about 150 KB of the page).
    public var marks: [Mark]
    /// Findings with their place: every error (up to ``maxPlacedErrors``) and
    /// the first ``maxDetailedFindings`` warnings, by seq.
    public var findings: [Placed]
    /// The findings not placed one by one, counted per stretch and rule.
    public var aggregated: [Aggregate]
    /// How many findings ``aggregated`` counts (also counted in ``errors``/``warnings``).
    public var moreFindings: Int
    /// The number of error findings.
    public var errors: Int
    /// The number of warning findings.
    public var warnings: Int
    /// The quantisation grid: 0 for an exact timeline, else the number of buckets across the trace.
    public var buckets: Int

    /// Traces up to this many events are drawn exactly.
    public static let exactLimit: UInt64 = 20_000
    /// The number of time buckets for longer traces.
    public static let bucketCount = 4096
    /// The longest `mark` text drawn, in characters (a longer one is cut, ending with "…").
    public static let maxMarkLabel = 200
    /// How many warnings are placed individually; later ones are aggregated.
    public static let maxDetailedFindings = 5000
    /// How many errors are placed individually (errors are never aggregated
    /// while warnings could be: warnings are capped first).
    public static let maxPlacedErrors = 20_000

    /// Builds the timeline of the trace at `path` (two streaming passes).
    ///
    /// - Parameters:
    ///   - path: a `.lmdb` trace file or a `.jsonl` trace.
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, whose findings are drawn beside the catalogue's.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or `invalidArgument`
    ///   for app rules that cannot run together (an id of the catalogue, one used twice).
    public static func build(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                             customRules: [any LifecycleRule] = []) throws -> Timeline {
        try build(path, configuration: configuration, customRules: customRules,
                  placedWarnings: maxDetailedFindings, placedErrors: maxPlacedErrors)
    }

    /// ``build(_:configuration:customRules:)`` with other caps on the findings placed one by one (for tests).
    static func build(_ path: String, configuration: RuleConfiguration, customRules: [any LifecycleRule] = [],
                      placedWarnings: Int, placedErrors: Int,
                      exactLimit: UInt64 = Timeline.exactLimit) throws -> Timeline {
        var first: Double?
        var last: Double = 0
        var reducer = try LifecycleReducer(configuration: configuration, customRules: customRules)
        var kept: [Finding] = []  // placed one by one, in stream order (seq, rule)
        var aggregation = FindingAggregation()  // the rest, counted per stretch
        var errors = 0, warnings = 0, keptErrors = 0, keptWarnings = 0
        func keep(_ findings: [Finding]) {
            for f in findings {
                if f.severity == .error {
                    errors += 1
                    if keptErrors < placedErrors { keptErrors += 1; kept.append(f) } else { aggregation.add(f) }
                } else {
                    warnings += 1
                    if keptWarnings < placedWarnings { keptWarnings += 1; kept.append(f) } else { aggregation.add(f) }
                }
            }
        }
        let eventCount: UInt64, runCount: Int
        if Replayer.isJSONLines(path) {
            // One parse gives the findings and the time span.
            try Replayer.forEachEvent(in: path) { seq, event in
                if first == nil { first = event.t }
                last = event.t
                reducer.apply(seq: seq, event)
                if !reducer.findings.isEmpty { keep(reducer.takeSettledFindings()) }
                return true
            }
            reducer.finish()
            keep(reducer.takeSettledFindings())
            (eventCount, runCount) = (reducer.eventCount, reducer.runCount)
        } else {
            // A trace file: the findings from the fast replay stream, the span from its first and last events.
            let report = try Replayer.replay(path, configuration: configuration) { keep([$0]) }
            (eventCount, runCount) = (report.events, report.runs)
            let trace = try Trace(path: path)
            try trace.forEachEvent(from: 1) { _, event in first = event.t; return false }
            try trace.forEachEvent(from: max(1, UInt64(try trace.eventCount))) { _, event in last = event.t; return false }
        }
        var builder = TimelineBuilder(start: first ?? 0, end: last, events: eventCount, configuration: configuration,
                                      findings: kept, exactLimit: exactLimit)
        let boundaries = aggregation.boundarySeqs
        var boundaryT: [UInt64: Double] = [:]
        try Replayer.forEachEvent(in: path) { seq, event in
            builder.apply(seq: seq, event)
            if boundaries.contains(seq) { boundaryT[seq] = event.t }
            return true
        }
        builder.finish()
        let aggregated = aggregation.sorted.map { entry in
            Aggregate(rule: entry.key.rule, severity: entry.key.severity, count: entry.count.count,
                      firstSeq: entry.count.firstSeq, lastSeq: entry.count.lastSeq,
                      start: boundaryT[entry.count.firstSeq] ?? last, end: boundaryT[entry.count.lastSeq] ?? last)
        }
        return Timeline(
            trace: path, events: eventCount, runs: runCount, startTime: first ?? 0, endTime: last,
            rows: builder.processes.reduce(0) { $0 + $1.rowCount },
            processes: builder.processes.map(\.process), processNames: builder.processes.map(\.displayName),
            processRows: builder.processes.map(\.rowCount), labels: builder.labels, segments: builder.segments, marks: builder.marks,
            findings: builder.placed, aggregated: aggregated, moreFindings: aggregation.total,
            errors: errors, warnings: warnings, buckets: builder.quantum > 0 ? bucketCount : 0)
    }
}

/// Follows the reducer's state event by event and records lanes, marks and findings.
///
/// The reducer's model is that of the process of the event it applied last, so the builder
/// keeps each process's lanes itself (``ProcessLanes``) and reads the reducer's windows and
/// phases only right after an event of that process.
struct TimelineBuilder {
    var reducer: LifecycleReducer
    let start: Double
    let quantum: Double
    var labels: [String] = []
    var labelIndex: [String: Int] = [:]
    var segments: [Timeline.Segment] = []
    var marks: [Timeline.Mark] = []
    var markIndex: [MarkKey: Int] = [:]
    var placed: [Timeline.Placed] = []
    let findings: [Finding]
    var nextFinding = 0
    /// Every process seen, in the order it first appeared.
    var processes: [ProcessLanes] = []
    var processIndex: [String: Int] = [:]
    /// The last segment emitted per lane, for merging.
    var lastSegmentOfLane: [Lane: Int] = [:]
    var lastT: Double = 0

    /// One lane: a process and a row of it (-1: its app phase).
    struct Lane: Hashable, Comparable {
        var process: Int
        var row: Int
        static func < (a: Lane, b: Lane) -> Bool { (a.process, a.row) < (b.process, b.row) }
    }

    /// One process's lanes: its open windows, its app phase, its rows.
    struct ProcessLanes {
        /// `""` for the main app.
        var process: String
        /// The main app's `app` from its first launch that has one.
        var appName: String?
        /// Open windows by instance: row, label, phase, where the current segment began, and the window's id.
        var lanes: [Int: (row: Int, label: Int, phase: LifecyclePhase, since: Double, id: String)] = [:]
        /// Open windows' instances by window id.
        var byWindow: [String: Int] = [:]
        var appLane: (phase: LifecyclePhase, since: Double)?
        var freeRows: [Int] = []
        var rowCount = 0
        /// Whether a run of the process was going after its last event.
        var running = false
        /// The `t` of the process's last event.
        var lastEventT: Double = 0

        var displayName: String {
            if !process.isEmpty { return process }
            return appName.map { "\($0) (app)" } ?? "app"
        }

        func row(ofWindow id: String?) -> Int? { id.flatMap { byWindow[$0] }.flatMap { lanes[$0]?.row } }
    }

    struct MarkKey: Hashable {
        var kind: Timeline.Mark.Kind
        var lane: Lane
        var bucket: Int
    }

    init(start: Double, end: Double, events: UInt64, configuration: RuleConfiguration, findings: [Finding], exactLimit: UInt64) {
        reducer = LifecycleReducer(configuration: configuration)
        self.start = start
        let span = end - start
        quantum = events > exactLimit && span > 0 && span.isFinite ? span / Double(Timeline.bucketCount) : 0
        self.findings = findings
    }

    private func bucket(_ t: Double) -> Int {
        guard quantum > 0 else { return 0 }
        let b = (t - start) / quantum
        return b.isFinite ? Int(min(max(b, 0), Double(Timeline.bucketCount + 1))) : 0
    }

    mutating func label(_ text: String) -> Int {
        if let i = labelIndex[text] { return i }
        labels.append(text)
        labelIndex[text] = labels.count - 1
        return labels.count - 1
    }

    /// The index of the process an event is about (`""` and no `process`: the main app).
    mutating func process(of event: LifecycleEvent) -> Int { process(named: event.process ?? "") }

    /// The index of the process `name` (`""`: the main app), added when new.
    mutating func process(named name: String) -> Int {
        if let i = processIndex[name] { return i }
        processes.append(ProcessLanes(process: name))
        processIndex[name] = processes.count - 1
        return processes.count - 1
    }

    /// Records a tick; on a quantised timeline, one per kind, lane and bucket, counting the rest
    /// (a `mark`'s entry keeps the text of the first, so its texts are as bounded as its entries).
    mutating func addMark(_ kind: Timeline.Mark.Kind, _ lane: Lane, t: Double, seq: UInt64, text: String? = nil) {
        if quantum > 0 {
            let key = MarkKey(kind: kind, lane: lane, bucket: bucket(t))
            if let i = markIndex[key] { marks[i].count += 1; return }
            markIndex[key] = marks.count
        }
        var mark = Timeline.Mark(kind: kind, process: lane.process, row: lane.row, t: t, count: 1, seq: seq)
        if let text { mark.label = label(Self.cut(text, to: Timeline.maxMarkLabel)) }
        marks.append(mark)
    }

    /// `text` cut to at most `limit` characters, the last of them "…" when it was longer.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// What a lane held in a time bucket it did not fill with one phase: the time spent in each phase.
    struct BucketFill {
        var bucket: Int
        var time: [Double] = [0, 0, 0]
        var labels: [Int] = [0, 0, 0]
        var from: Double, to: Double
    }

    /// Partly filled buckets, by lane (level of detail for quantised timelines).
    var fills: [Lane: BucketFill] = [:]

    static let phaseOrder: [LifecyclePhase] = [.active, .inactive, .background]

    /// Records that `lane` was in `phase` from `from` to `to`. On a quantised
    /// timeline, whole buckets keep their phase; a bucket the lane spends in
    /// several phases (or only partly) becomes one segment over the time it
    /// was covered, in the phase it spent most of that time in, so short
    /// phases neither vanish nor multiply segments.
    mutating func emitSegment(_ lane: Lane, from: Double, to: Double, phase: LifecyclePhase, label: Int) {
        guard to > from else { return }  // nothing to draw
        guard quantum > 0 else { return appendSegment(lane, from: from, to: to, phase: phase, label: label) }
        var a = from
        while a < to {
            let b = bucket(a)
            let bucketStart = start + Double(b) * quantum, bucketEnd = start + Double(b + 1) * quantum
            let end = min(to, bucketEnd)
            if let fill = fills[lane], fill.bucket != b { flush(lane, fill) }
            if a - bucketStart <= quantum * 1e-9, end >= bucketEnd - quantum * 1e-9, fills[lane] == nil {
                appendSegment(lane, from: a, to: end, phase: phase, label: label)  // the whole bucket
            } else {
                var fill = fills[lane] ?? BucketFill(bucket: b, from: a, to: end)
                // `!`: every phase is in `phaseOrder`.
                let p = Self.phaseOrder.firstIndex(of: phase)!
                fill.time[p] += end - a
                fill.labels[p] = label
                fill.to = max(fill.to, end)
                fills[lane] = fill
            }
            if end <= a { break }  // no progress (t beyond the grid's last bucket)
            a = end
        }
    }

    /// Ends a partly filled bucket: one segment in its most-covered phase.
    mutating func flush(_ lane: Lane, _ fill: BucketFill) {
        fills[lane] = nil
        var best = 0
        for p in 1..<3 where fill.time[p] > fill.time[best] { best = p }
        appendSegment(lane, from: fill.from, to: fill.to, phase: Self.phaseOrder[best], label: fill.labels[best])
    }

    mutating func appendSegment(_ lane: Lane, from: Double, to: Double, phase: LifecyclePhase, label: Int) {
        if let i = lastSegmentOfLane[lane], segments[i].phase == phase, segments[i].label == label,
           segments[i].end >= from - quantum {
            segments[i].end = to
            return
        }
        lastSegmentOfLane[lane] = segments.count
        segments.append(Timeline.Segment(process: lane.process, row: lane.row, start: from, end: to, phase: phase, label: label))
    }

    mutating func apply(seq: UInt64, _ event: LifecycleEvent) {
        let t = event.t
        lastT = t
        if case .mark(let text) = event.kind {
            // A mark belongs to no run and changes nothing (the reducer keeps its current process,
            // and the process's lanes and its end stay as they were). It is drawn on its process's
            // app lane; a process that only marks (a test runner) gets that lane for its marks.
            reducer.apply(seq: seq, event)
            let p = process(of: event)
            addMark(.mark, Lane(process: p, row: -1), t: t, seq: seq, text: text)
            place(seq: seq, t: t, process: p, row: -1)
            return
        }
        let p = process(of: event)
        // Where the event's window is before the event (a dismiss removes it).
        let rowBefore = processes[p].row(ofWindow: event.window)
        let hadRun = processes[p].running
        if case .launch = event.kind, hadRun {
            // The process died some time after its last event: its lanes end there.
            closeAll(p, at: processes[p].lastEventT)
            addMark(.uncleanEnd, Lane(process: p, row: -1), t: processes[p].lastEventT, seq: seq)
        }
        // The reducer now works on this event's process: its windows and phases are this process's.
        reducer.apply(seq: seq, event)
        let running = reducer.isRunning
        processes[p].running = running
        processes[p].lastEventT = t
        switch event.kind {
        case .launch(let launch):
            if p == processIndex[""], processes[p].appName == nil { processes[p].appName = launch.app }
            addMark(.launch, Lane(process: p, row: -1), t: t, seq: seq)
        case .terminate where hadRun && !running:
            closeAll(p, at: t)
            addMark(.terminate, Lane(process: p, row: -1), t: t, seq: seq)
        case .kill where hadRun:
            closeAll(p, at: t)
            addMark(.kill, Lane(process: p, row: -1), t: t, seq: seq)
        case .dismiss:
            if let row = rowBefore { addMark(.dismiss, Lane(process: p, row: row), t: t, seq: seq) }
        case .write where hadRun:
            addMark(.write, Lane(process: p, row: processes[p].row(ofWindow: event.window) ?? -1), t: t, seq: seq)
        case .save where hadRun:
            addMark(.save, Lane(process: p, row: processes[p].row(ofWindow: event.window) ?? -1), t: t, seq: seq)
        default:
            break
        }
        if running { syncLanes(p, at: t, seq: seq) }
        place(seq: seq, t: t, process: p, row: processes[p].row(ofWindow: event.window) ?? rowBefore ?? -1)
    }

    /// Places the findings anchored at `seq`.
    mutating func place(seq: UInt64, t: Double, process: Int, row: Int) {
        while nextFinding < findings.count, findings[nextFinding].seq == seq {
            placed.append(Timeline.Placed(finding: findings[nextFinding], t: t, process: process, row: row))
            nextFinding += 1
        }
    }

    /// Brings process `p`'s lanes in line with the reducer's windows and phases after an event of `p`.
    mutating func syncLanes(_ p: Int, at t: Double, seq: UInt64) {
        let open = reducer.openWindows
        let openInstances = Set(open.map(\.instance))
        for (instance, lane) in processes[p].lanes.sorted(by: { $0.key < $1.key }) where !openInstances.contains(instance) {
            emitSegment(Lane(process: p, row: lane.row), from: lane.since, to: t, phase: lane.phase, label: lane.label)
            processes[p].lanes[instance] = nil
            if processes[p].byWindow[lane.id] == instance { processes[p].byWindow[lane.id] = nil }
            processes[p].freeRows.append(lane.row)
            processes[p].freeRows.sort(by: >)
        }
        for window in open.sorted(by: { $0.instance < $1.instance }) {
            let phase = reducer.phase(of: window)
            if let lane = processes[p].lanes[window.instance] {
                if lane.phase != phase {
                    emitSegment(Lane(process: p, row: lane.row), from: lane.since, to: t, phase: lane.phase, label: lane.label)
                    processes[p].lanes[window.instance] = (lane.row, lane.label, phase, t, lane.id)
                }
            } else {
                let row = processes[p].freeRows.popLast() ?? { processes[p].rowCount += 1; return processes[p].rowCount - 1 }()
                let id = reducer.names[window.id]
                var text = "\(id) · \(reducer.names[window.scene])"
                if let value = window.canonicalValue { text += " \(value)" }
                processes[p].lanes[window.instance] = (row, label(text), phase, t, id)
                processes[p].byWindow[id] = window.instance
                addMark(.open, Lane(process: p, row: row), t: t, seq: seq)
            }
        }
        let app = reducer.appPhase
        if let lane = processes[p].appLane {
            if lane.phase != app {
                emitSegment(Lane(process: p, row: -1), from: lane.since, to: t, phase: lane.phase, label: label("app"))
                processes[p].appLane = (app, t)
            }
        } else {
            processes[p].appLane = (app, t)
        }
    }

    mutating func closeAll(_ p: Int, at t: Double) {
        for (_, lane) in processes[p].lanes.sorted(by: { $0.key < $1.key }) {
            emitSegment(Lane(process: p, row: lane.row), from: lane.since, to: t, phase: lane.phase, label: lane.label)
        }
        processes[p].lanes.removeAll()
        processes[p].byWindow.removeAll()
        processes[p].freeRows = Array((0..<processes[p].rowCount).reversed())
        if let lane = processes[p].appLane {
            emitSegment(Lane(process: p, row: -1), from: lane.since, to: t, phase: lane.phase, label: label("app"))
        }
        processes[p].appLane = nil
    }

    mutating func finish() {
        for p in processes.indices { closeAll(p, at: lastT) }
        for (lane, fill) in fills.sorted(by: { $0.key < $1.key }) { flush(lane, fill) }
        // Every process with an event keeps its lanes (a test runner's marks are drawn on its own),
        // so the page counts the processes `replay stats` counts.
    }
}
