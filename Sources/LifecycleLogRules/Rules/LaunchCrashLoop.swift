/// `launch-crash-loop` (rules version 3): a run failed to launch (a launch with UI that never
/// became active and ended by a recorded crash or watchdog kill, or with no known cause while not
/// in the background) right after another run of its process that failed to launch, within the
/// limit of it (rules.md, Readings 22 and 23). One finding per loop, at the second failed run's end.
package struct LaunchCrashLoop: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runEnded]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/launch-crash-loop", "rules/launch-crash-loop-negative"]

    /// The longest time, in milliseconds of `t`, from one failed launch's `launch` to the next's.
    let limit: Double
    /// The run of this process just ended, when it failed to launch: its number, `launch` and end event.
    private var previous: (run: Int, launchSeq: UInt64, launchT: Double, endSeq: UInt64)?
    /// Whether the loop that ``previous`` belongs to has been reported.
    private var reported = false

    init(limit: Double) {
        self.limit = limit
    }

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition else { return }
        judge(end, &model, &findings)
    }

    /// Whether a run that ended at `end` failed to launch (Readings 22).
    static func failedToLaunch(_ run: RunState, _ end: RunEnd) -> Bool {
        guard SlowLaunch.judges(run), !run.everActive else { return false }
        if let kill = end.kill, kill.reason == .crash || kill.reason == .watchdog { return true }
        return end.isUnexplained(underDebugger: run.debugger) && end.appPhase != .background
    }

    /// Takes the view `inout` only to be given it by address: a `borrowing` view is copied whole
    /// at each call (Swift 6.3), and this runs at every run's end.
    @inline(never)
    private mutating func judge(_ end: RunEnd, _ model: inout ModelView, _ findings: inout FindingQueue) {
        // The run's fields are read in place: a `let` of the whole run state retained each of its tables.
        guard Self.failedToLaunch(model.run, end) else {
            previous = nil
            reported = false
            return
        }
        let (number, launchSeq, launchT) = (model.run.number, model.run.launchSeq, model.run.launchT)
        defer { previous = (number, launchSeq, launchT, end.seq) }
        guard let first = previous, first.run == number - 1, launchT - first.launchT <= limit else {
            reported = false
            return
        }
        guard !reported else { return }
        reported = true
        report(first: first, end, model, &findings)
    }

    private func report(first: (run: Int, launchSeq: UInt64, launchT: Double, endSeq: UInt64), _ end: RunEnd, _ model: borrowing ModelView,
                        _ findings: inout FindingQueue) {
        let run = model.run
        let names = model.names
        let how: String
        if let kill = end.kill {
            how = "was killed (reason \"\(names[kill.name])\") at seq \(end.seq)"
        } else {
            // The trace knows only that the process was gone by the next launch (issue 30).
            how = "ended with nothing recorded (the next launch came at seq \(end.seq); a crash, a watchdog kill and a force quit while it hung all look like this)"
        }
        let restored = model.openWindows.filter(\.restored).sorted { $0.openSeq < $1.openSeq }
        let restoredList = FindingBound.list(restored) { "\(names[$0.id]) (scene \(names[$0.scene]))" }
        let restoringText = restored.isEmpty ? "" : " It was restoring \(restored.count == 1 ? "window" : "windows") \(restoredList) when it ended: a crash or a hang while restoring saved state is the usual cause."
        let gap = JSONWriter.number(run.launchT - first.launchT)
        let restoring = model.openWindows.indices.filter { model.openWindows[$0].restored }
        findings.report(.launchCrashLoop, at: end.seq, related: [first.launchSeq, first.endSeq, run.launchSeq],
                        subject: model.subject(windows: restoring, details: [end.kill.map { "kill:\(names[$0.name])" } ?? "nothing recorded"]),
                        "Run \(run.number) (launched at seq \(run.launchSeq), \(gap) ms after run \(first.run) at seq \(first.launchSeq), which also ended before becoming active) \(how) without ever becoming active: the app fails at launch again and again.\(restoringText) Make restoration tolerate bad saved state (decode with try? and fall back to an empty window, check that a document still exists), avoid force unwraps in App.init and the first view, and look in the crash and hang logs for these times.")
    }
}

extension LaunchCrashLoop: DescribedRule {
    /// `launch-crash-loop` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .launchCrashLoop, defaultSeverity: .error,
        summary: "The app died at launch, before becoming active, twice in a row within a minute.",
        fix: "Two launches in a row died before becoming active (within `launch-crash-loop-ms`, 60 s): make window restoration tolerate bad saved state; check crash logs.",
        anchor: "the end event of the second failed launch in a row",
        since: 3,
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension LaunchCrashLoop {
    /// Its threshold.
    package static let thresholds = [RuleThreshold.launchCrashLoop]

    /// The rule with the catalogue's threshold.
    package init() { self.init(limit: RuleThreshold.launchCrashLoop.defaultValue) }

    /// The rule with the threshold `configuration` gives it.
    package init(configuration: RuleConfiguration) { self.init(limit: configuration[threshold: .launchCrashLoop]) }
}

extension RuleThreshold {
    /// The window of `launch-crash-loop` (`launch-crash-loop-ms`): the longest time from one failed launch to the next that counts as a loop, in milliseconds of `t`; 60,000 unless set (rules version 3).
    public static let launchCrashLoop = RuleThreshold(id: "launch-crash-loop-ms", rule: .launchCrashLoop, defaultValue: 60_000)
}

extension Rule {
    /// `launch-crash-loop`: The app died at launch, before becoming active, twice in a row within a minute.
    public static let launchCrashLoop = Rule(catalogue: "launch-crash-loop")
}
