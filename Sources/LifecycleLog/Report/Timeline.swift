/// What a lifecycle trace looked like over time: the model behind
/// `replay report`'s HTML timeline.
///
/// Windows are packed into rows (a row holds one window at a time, so there
/// are as many rows as windows were ever open at once), each with its phase
/// over time; the app phase has a lane of its own. Long traces are quantised
/// to a fixed grid (see ``buckets``), so the model's size is bounded whatever
/// the trace's length.
public struct Timeline: Sendable {
    /// A stretch of one lane in one phase.
    public struct Segment: Sendable, Hashable {
        /// The lane: -1 for the app phase, else a window row.
        public var row: Int
        /// Start and end, in ms of `t`.
        public var start: Double, end: Double
        /// The phase.
        public var phase: ScenePhase
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
        }
        /// What happened.
        public var kind: Kind
        /// The lane (-1: the app lane; run boundaries span every lane).
        public var row: Int
        /// When, in ms of `t`.
        public var t: Double
        /// How many such events this mark stands for (more than one after quantising).
        public var count: Int
        /// The first seq it stands for.
        public var seq: UInt64
    }

    /// A finding placed on the timeline.
    public struct Placed: Sendable, Hashable {
        /// The finding.
        public var finding: Finding
        /// The `t` of the event it is anchored at.
        public var t: Double
        /// The lane of that event's window, or -1 for the app lane.
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
    /// The number of window rows.
    public var rows: Int
    /// Window labels (`"w1 · note 42"`), indexed by ``Segment/label``.
    public var labels: [String]
    /// Phase bands, per lane in time order.
    public var segments: [Segment]
    /// Opens, dismisses, writes, saves and run boundaries.
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
    /// How many warnings are placed individually; later ones are aggregated.
    public static let maxDetailedFindings = 5000
    /// How many errors are placed individually (errors are never aggregated
    /// while warnings could be: warnings are capped first).
    public static let maxPlacedErrors = 20_000

    /// Builds the timeline of the trace at `path` (two streaming passes).
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    public static func build(_ path: String, configuration: RuleConfiguration = RuleConfiguration()) throws -> Timeline {
        try build(path, configuration: configuration, placedWarnings: maxDetailedFindings, placedErrors: maxPlacedErrors)
    }

    /// ``build(_:configuration:)`` with other caps on the findings placed one by one (for tests).
    static func build(_ path: String, configuration: RuleConfiguration, placedWarnings: Int, placedErrors: Int,
                      exactLimit: UInt64 = Timeline.exactLimit) throws -> Timeline {
        var first: Double?
        var last: Double = 0
        var reducer = LifecycleReducer(configuration: configuration)
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
            rows: builder.rowCount, labels: builder.labels, segments: builder.segments, marks: builder.marks,
            findings: builder.placed, aggregated: aggregated, moreFindings: aggregation.total,
            errors: errors, warnings: warnings, buckets: builder.quantum > 0 ? bucketCount : 0)
    }
}

/// Follows the reducer's state event by event and records lanes, marks and findings.
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
    /// Open windows by instance: row, label, phase and where the current segment began.
    var lanes: [Int: (row: Int, label: Int, phase: ScenePhase, since: Double)] = [:]
    var appLane: (phase: ScenePhase, since: Double)?
    var freeRows: [Int] = []
    var rowCount = 0
    /// The last segment emitted per row, for merging.
    var lastSegmentOfRow: [Int: Int] = [:]
    var lastT: Double = 0

    struct MarkKey: Hashable {
        var kind: Timeline.Mark.Kind
        var row: Int
        var bucket: Int
    }

    init(start: Double, end: Double, events: UInt64, configuration: RuleConfiguration, findings: [Finding], exactLimit: UInt64) {
        reducer = LifecycleReducer(configuration: configuration)
        self.start = start
        quantum = events > exactLimit && end > start ? (end - start) / Double(Timeline.bucketCount) : 0
        self.findings = findings
    }

    private func bucket(_ t: Double) -> Int { quantum > 0 ? Int((t - start) / quantum) : 0 }

    mutating func label(_ text: String) -> Int {
        if let i = labelIndex[text] { return i }
        labels.append(text)
        labelIndex[text] = labels.count - 1
        return labels.count - 1
    }

    mutating func addMark(_ kind: Timeline.Mark.Kind, row: Int, t: Double, seq: UInt64) {
        if quantum > 0 {
            let key = MarkKey(kind: kind, row: row, bucket: bucket(t))
            if let i = markIndex[key] { marks[i].count += 1; return }
            markIndex[key] = marks.count
        }
        marks.append(Timeline.Mark(kind: kind, row: row, t: t, count: 1, seq: seq))
    }

    /// What a row held in a time bucket it did not fill with one phase: the time spent in each phase.
    struct BucketFill {
        var bucket: Int
        var time: [Double] = [0, 0, 0]
        var labels: [Int] = [0, 0, 0]
        var from: Double, to: Double
    }

    /// Partly filled buckets, by row (level of detail for quantised timelines).
    var fills: [Int: BucketFill] = [:]

    static let phaseOrder: [ScenePhase] = [.active, .inactive, .background]

    /// Records that `row` was in `phase` from `from` to `to`. On a quantised
    /// timeline, whole buckets keep their phase; a bucket the row spends in
    /// several phases (or only partly) becomes one segment over the time it
    /// was covered, in the phase it spent most of that time in, so short
    /// phases neither vanish nor multiply segments.
    mutating func emitSegment(row: Int, from: Double, to: Double, phase: ScenePhase, label: Int) {
        guard to > from else { return }  // nothing to draw
        guard quantum > 0 else { return appendSegment(row: row, from: from, to: to, phase: phase, label: label) }
        var a = from
        while a < to {
            let b = bucket(a)
            let bucketStart = start + Double(b) * quantum, bucketEnd = start + Double(b + 1) * quantum
            let end = min(to, bucketEnd)
            if let fill = fills[row], fill.bucket != b { flush(row: row, fill) }
            if a - bucketStart <= quantum * 1e-9, end >= bucketEnd - quantum * 1e-9, fills[row] == nil {
                appendSegment(row: row, from: a, to: end, phase: phase, label: label)  // the whole bucket
            } else {
                var fill = fills[row] ?? BucketFill(bucket: b, from: a, to: end)
                // `!`: every phase is in `phaseOrder`.
                let p = Self.phaseOrder.firstIndex(of: phase)!
                fill.time[p] += end - a
                fill.labels[p] = label
                fill.to = max(fill.to, end)
                fills[row] = fill
            }
            if end <= a { break }  // no progress (t beyond the grid's last bucket)
            a = end
        }
    }

    /// Ends a partly filled bucket: one segment in its most-covered phase.
    mutating func flush(row: Int, _ fill: BucketFill) {
        fills[row] = nil
        var best = 0
        for p in 1..<3 where fill.time[p] > fill.time[best] { best = p }
        appendSegment(row: row, from: fill.from, to: fill.to, phase: Self.phaseOrder[best], label: fill.labels[best])
    }

    mutating func appendSegment(row: Int, from: Double, to: Double, phase: ScenePhase, label: Int) {
        if let i = lastSegmentOfRow[row], segments[i].phase == phase, segments[i].label == label,
           segments[i].end >= from - quantum {
            segments[i].end = to
            return
        }
        lastSegmentOfRow[row] = segments.count
        segments.append(Timeline.Segment(row: row, start: from, end: to, phase: phase, label: label))
    }

    mutating func apply(seq: UInt64, _ event: Event) {
        let t = event.t
        lastT = t
        // Where the event's window is before the event (a dismiss removes it).
        let rowBefore = event.window.flatMap { reducer.openWindow(named: $0) }.flatMap { lanes[$0.instance]?.row }
        let hadRun = reducer.isRunning
        if case .launch = event.kind, hadRun {
            // The process died some time after its last event: the lanes end there.
            closeAll(at: lastRunEventT)
            addMark(.uncleanEnd, row: -1, t: lastRunEventT, seq: seq)
        }
        reducer.apply(seq: seq, event)
        switch event.kind {
        case .launch:
            addMark(.launch, row: -1, t: t, seq: seq)
        case .terminate where hadRun:
            closeAll(at: t)
            addMark(.terminate, row: -1, t: t, seq: seq)
        case .dismiss:
            if let row = rowBefore { addMark(.dismiss, row: row, t: t, seq: seq) }
        case .write where hadRun:
            addMark(.write, row: event.window.flatMap { reducer.openWindow(named: $0) }.flatMap { lanes[$0.instance]?.row } ?? -1, t: t, seq: seq)
        case .save where hadRun:
            addMark(.save, row: event.window.flatMap { reducer.openWindow(named: $0) }.flatMap { lanes[$0.instance]?.row } ?? -1, t: t, seq: seq)
        default:
            break
        }
        if reducer.isRunning { syncLanes(at: t, seq: seq) }
        lastRunEventT = t
        while nextFinding < findings.count, findings[nextFinding].seq == seq {
            let row = event.window.flatMap { reducer.openWindow(named: $0) }.flatMap { lanes[$0.instance]?.row } ?? rowBefore ?? -1
            placed.append(Timeline.Placed(finding: findings[nextFinding], t: t, row: row))
            nextFinding += 1
        }
    }

    var lastRunEventT: Double = 0

    /// Brings the lanes in line with the reducer's windows and phases after an event.
    mutating func syncLanes(at t: Double, seq: UInt64) {
        let open = reducer.openWindows
        let openInstances = Set(open.map(\.instance))
        for (instance, lane) in lanes.sorted(by: { $0.key < $1.key }) where !openInstances.contains(instance) {
            emitSegment(row: lane.row, from: lane.since, to: t, phase: lane.phase, label: lane.label)
            lanes[instance] = nil
            freeRows.append(lane.row)
            freeRows.sort(by: >)
        }
        for window in open.sorted(by: { $0.instance < $1.instance }) {
            let phase = reducer.phase(of: window)
            if let lane = lanes[window.instance] {
                if lane.phase != phase {
                    emitSegment(row: lane.row, from: lane.since, to: t, phase: lane.phase, label: lane.label)
                    lanes[window.instance] = (lane.row, lane.label, phase, t)
                }
            } else {
                let row = freeRows.popLast() ?? { rowCount += 1; return rowCount - 1 }()
                var text = "\(reducer.names[window.id]) · \(reducer.names[window.scene])"
                if let value = window.canonicalValue { text += " \(value)" }
                lanes[window.instance] = (row, label(text), phase, t)
                addMark(.open, row: row, t: t, seq: seq)
            }
        }
        let app = reducer.appPhase
        if let lane = appLane {
            if lane.phase != app {
                emitSegment(row: -1, from: lane.since, to: t, phase: lane.phase, label: label("app"))
                appLane = (app, t)
            }
        } else {
            appLane = (app, t)
        }
    }

    mutating func closeAll(at t: Double) {
        for (_, lane) in lanes.sorted(by: { $0.key < $1.key }) {
            emitSegment(row: lane.row, from: lane.since, to: t, phase: lane.phase, label: lane.label)
        }
        lanes.removeAll()
        freeRows = Array((0..<rowCount).reversed())
        if let lane = appLane { emitSegment(row: -1, from: lane.since, to: t, phase: lane.phase, label: label("app")) }
        appLane = nil
    }

    mutating func finish() {
        closeAll(at: lastT)
        for (row, fill) in fills.sorted(by: { $0.key < $1.key }) { flush(row: row, fill) }
    }
}
