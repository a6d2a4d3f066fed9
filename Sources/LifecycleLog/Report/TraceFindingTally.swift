import LifecycleLogRules

/// One trace's findings grouped by fingerprint, with the runs (launches) they fell in: what
/// `replay summary` keeps of a trace once it is replayed, before it joins the
/// ``FindingSummary``.
///
/// The trace is replayed as `replay TRACE` replays it (a trace file on two threads,
/// ``PipelinedReplay``; a JSON Lines trace line by line), with the rules of its configuration
/// and the app's own rules. Each finding is attributed to the event it is anchored at: that
/// event's process, and that process's current run, the one its latest `launch` at or before the
/// finding's seq started (whose `build`, `os` and `platform` the summary lists). A finding before
/// its process's first launch (`event-before-launch`) is in no run. An `unclean-exit` or
/// `launch-crash-loop` anchored at a `launch` (a run that ended unrecorded is judged at the next
/// launch) is about the run before it, and is counted in that run, under that run's build.
///
/// Memory: the launches of the trace (a few words and the build and OS strings each), one entry
/// per fingerprint found, and the (process, run) changes back to the reducer's watermark (the
/// oldest seq a finding still to come can be anchored at), pruned as the replay goes; never the
/// findings themselves.
struct TraceFindingTally {
    /// The fields of one `launch` the summary lists.
    struct Launch {
        /// Its process (an index into ``TraceFindingTally/processes``).
        var process: Int32
        /// Its seq.
        var seq: UInt64
        /// The run of its process before it (an index into ``TraceFindingTally/launches``; `-1`: none).
        var previous: Int32
        /// Its `build`, if it names one.
        var build: String?
        /// Its `os` version, if it names one.
        var os: String?
        /// Its `platform`.
        var platform: String
    }

    /// What the trace holds of one fingerprint.
    struct Group {
        /// The rule that found them.
        var rule: Rule
        /// Their severity (the highest).
        var severity: Severity
        /// What they are about (``Finding/subject``).
        var subject: FindingSubject?
        /// How many findings have the fingerprint.
        var findings = 0
        /// The runs they fell in (indices into ``TraceFindingTally/launches``; `-1`: before any launch of their process).
        var runs: Set<Int32> = []
        /// The processes of the events they are anchored at (indices into ``TraceFindingTally/processes``).
        var processes: Set<Int32> = []
        /// The seq of the first of them.
        var firstSeq: UInt64
        /// The message of the first of them.
        var firstMessage: String
    }

    /// The trace's processes in the order their first event came: `""` is the main app.
    var processes: [String] { processIndex.names }
    /// Every launch of the trace, in order.
    private(set) var launches: [Launch] = []
    /// The findings by fingerprint hash (`FindingFingerprints/hash(_:)`).
    private(set) var groups: [UInt64: Group] = [:]
    /// How many events the trace has.
    private(set) var events: UInt64 = 0
    /// How many runs (launches) it has.
    var runs: Int { launches.count }

    /// The processes' numbering (``processes``).
    private var processIndex = ProcessIndex()
    /// Each process's current run (index into ``launches``, `-1` before its first launch).
    private var currentLaunch: [Int32] = []
    /// Where the (process, run) of the events changes: from `seq` on, events are of `process` in `launch`.
    private var marks: [(seq: UInt64, process: Int32, launch: Int32)] = []
    /// The number of marks past which they are pruned below the watermark.
    private var pruneAt = 64

    /// Replays the trace at `path` and tallies its findings.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or `invalidArgument`
    ///   when `customRules` cannot run together.
    static func gather(_ path: String, configuration: RuleConfiguration, customRules: [any LifecycleRule]) throws -> TraceFindingTally {
        try Replayer.refuseFolder(path)
        var tally = TraceFindingTally()
        var reducer = try LifecycleReducer(configuration: configuration, customRules: customRules)
        if Replayer.isJSONLines(path) {
            try JSONLinesDecoder.forEachEvent(inFile: path, tornFinalRecord: path == "-" ? nil : { _ in }) { seq, _, event in
                let p = tally.process(named: event.process ?? "")
                if case .launch(let launch) = event.kind {
                    tally.launched(p, seq: seq, build: launch.build, os: launch.os, platform: launch.platform.rawValue)
                }
                tally.note(seq: seq, process: p)
                reducer.apply(seq: seq, event)
                if !reducer.findings.isEmpty { tally.add(reducer.takeSettledFindings()) }
                if tally.marks.count >= tally.pruneAt { tally.forget(below: reducer.watermark(after: seq)) }
            }
        } else {
            var lastSeq: UInt64 = 0
            try PipelinedReplay.forEachBatch(of: path) { batch in
                let symbols = batch.symbols
                let extras = batch.extras
                try reducer.apply(batch, observe: { step in
                    let event = step.event
                    let p = tally.process(event.process, symbols: symbols)
                    if event.kind == .launch, event.extraIndex != ReplayEvent.noExtra, let launch = extras[Int(event.extraIndex)].launch {
                        tally.launched(p, seq: step.seq, build: launch.build, os: launch.os, platform: launch.platform.rawValue)
                    }
                    tally.note(seq: step.seq, process: p)
                    lastSeq = step.seq
                }, settled: { tally.add($0) })
                if tally.marks.count >= tally.pruneAt { tally.forget(below: reducer.watermark(after: lastSeq)) }
            }
        }
        reducer.finish()
        tally.add(reducer.takeSettledFindings())
        tally.events = reducer.eventCount
        tally.marks = []
        tally.currentLaunch = []
        return tally
    }

    /// The process `name`, numbered at its first event.
    private mutating func process(named name: String) -> Int32 {
        numbered(processIndex.index(of: name))
    }

    /// The process of a trace file's event (`process` as decoded, `symbols` its batch's names).
    @inline(__always)
    private mutating func process(_ process: Name, symbols: [String]) -> Int32 {
        numbered(processIndex.index(of: process, symbols: symbols))
    }

    /// The index `found` of ``processIndex``, with the process's current run added when it is new.
    @inline(__always)
    private mutating func numbered(_ found: (index: Int, isNew: Bool)) -> Int32 {
        if found.isNew { currentLaunch.append(-1) }
        return Int32(found.index)
    }

    /// Process `p` launched: a new run.
    private mutating func launched(_ p: Int32, seq: UInt64, build: String?, os: String?, platform: String) {
        let previous = currentLaunch[Int(p)]
        currentLaunch[Int(p)] = Int32(launches.count)
        launches.append(Launch(process: p, seq: seq, previous: previous, build: build, os: os, platform: platform))
    }

    /// The event `seq` is of process `p` (after its launch, if it is one).
    @inline(__always)
    private mutating func note(seq: UInt64, process p: Int32) {
        let launch = currentLaunch[Int(p)]
        if let last = marks.last, last.process == p, last.launch == launch { return }
        marks.append((seq, p, launch))
    }

    /// Drops the marks no finding anchored at `seq` or later needs (the last one at or before
    /// `seq` is kept).
    private mutating func forget(below seq: UInt64) {
        if let keep = lastMark(atOrBefore: seq), keep > 0 { marks.removeFirst(keep) }
        pruneAt = max(64, marks.count * 2)  // amortised: marks still needed are not rescanned at every event
    }

    /// The index of the last mark at or before `seq`.
    private func lastMark(atOrBefore seq: UInt64) -> Int? {
        var low = 0, high = marks.count
        while low < high {
            let mid = (low + high) / 2
            if marks[mid].seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// Counts settled findings under their fingerprints.
    private mutating func add(_ findings: [Finding]) {
        for finding in findings {
            let hash = FindingFingerprints.hash(finding)
            // A finding is never anchored below the watermark, so its mark is kept.
            let mark = lastMark(atOrBefore: finding.seq).map { marks[$0] } ?? (seq: 0, process: -1, launch: -1)
            var run = mark.launch
            // A run judged at the next launch (it ended unrecorded) is the run before that launch.
            if run >= 0, launches[Int(run)].seq == finding.seq, finding.rule == .uncleanExit || finding.rule == .launchCrashLoop {
                run = launches[Int(run)].previous
            }
            if groups[hash] == nil {
                groups[hash] = Group(rule: finding.rule, severity: finding.severity, subject: finding.subject,
                                     firstSeq: finding.seq, firstMessage: finding.message)
            }
            groups[hash]!.add(finding, run: run, process: mark.process)  // `!`: set just above
        }
    }
}

extension TraceFindingTally.Group {
    /// Counts `finding`, anchored in run `run` of process `process` (`-1`: unknown).
    fileprivate mutating func add(_ finding: Finding, run: Int32, process: Int32) {
        findings += 1
        runs.insert(run)
        if process >= 0 { processes.insert(process) }
        if finding.severity > severity { severity = finding.severity }
        if finding.seq < firstSeq {
            firstSeq = finding.seq
            firstMessage = finding.message
        }
    }
}
