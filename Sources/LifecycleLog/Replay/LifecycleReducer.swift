/// The deterministic fold at the heart of `replay`: it takes the events of a
/// trace one at a time, rebuilds the app's state (runs, declared scenes, open
/// windows with their scene, value and phase, the app phase, key versions and
/// writers, dirty keys, running activities) and reports what the rule
/// catalogue (`rules.md`) flags, and what an app's own rules
/// (``LifecycleRule``) flag.
///
/// It is a value type with no I/O: feed it events with ``apply(seq:_:)``,
/// call ``finish()`` at the end of the trace, then read ``findings``. Its
/// memory grows with open windows, keys and names, never with the number
/// of events.
///
/// ```swift
/// var reducer = LifecycleReducer()
/// try trace.forEachEvent { seq, event in reducer.apply(seq: seq, event) }
/// reducer.finish()
/// for finding in reducer.findings { print(finding.seq, finding.rule, finding.message) }
/// ```
///
/// Inside, a model (what happened: runs, windows, phases, keys) tells the
/// rules, one value each, what each event changed; ARCHITECTURE.md, "The
/// reducer", describes the parts.
public struct LifecycleReducer: Sendable {
    /// Which rules run and at which severity.
    public let configuration: RuleConfiguration

    /// What the trace says happened so far.
    var model = LifecycleModel()
    /// The rules, with the findings they reported.
    var rules: RuleSet
    var finished = false

    /// The number of events applied.
    public private(set) var eventCount: UInt64 = 0
    /// The number of runs (launches) seen.
    public var runCount: Int { model.runCount }
    /// The seq of the last event applied.
    public private(set) var lastSeq: UInt64 = 0

    /// Creates a reducer that applies `configuration`.
    public init(configuration: RuleConfiguration = RuleConfiguration()) {
        self.configuration = configuration
        rules = RuleSet(configuration: configuration, custom: [])
    }

    /// Creates a reducer that applies `configuration` and runs an app's own rules beside the catalogue's.
    ///
    /// - Parameters:
    ///   - configuration: the catalogue's rules to run and their severities.
    ///   - customRules: the app's own rules, each with an ``LifecycleRule/id`` of its own that is
    ///     not a catalogue id (checked: a trap otherwise; ``Replayer`` throws instead).
    public init(configuration: RuleConfiguration = RuleConfiguration(), customRules: [any LifecycleRule]) {
        if let problem = CustomRules.problem(with: customRules) { preconditionFailure(problem) }
        self.configuration = configuration
        rules = RuleSet(configuration: configuration, custom: customRules)
    }

    // Sendable: every stored property is a value type of Sendable parts.

    /// The strings behind the model's names.
    var names: NameTable {
        get { model.names }
        _modify { yield &model.names }
    }

    /// Applies one event. Events must come in seq order, each once.
    public mutating func apply(seq: UInt64, _ event: Event) {
        var extra: ReplayExtra?
        var replayEvent = ReplayEvent(event, names: &model.names, extra: &extra)
        if let extra {
            replayEvent.extraIndex = 0
            apply(seq: seq, replayEvent, extras: [extra])
        } else {
            apply(seq: seq, replayEvent, extras: [])
        }
    }

    /// Applies one event whose names are already this reducer's (see ``NameTable/adopt(_:)``).
    /// `extras` holds the ``ReplayExtra`` the event's ``ReplayEvent/extraIndex`` points at, if any.
    mutating func apply(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        eventCount += 1
        lastSeq = seq
        rules.now = EventTime(seq: seq, t: event.t)
        switch event.kind {
        case .unknown:
            rules.observe(.unknownEvent(kind: event.name), &model)
        case .mark:
            break
        case .launch:
            // `!`: every launch carries its fields (the decoder and the conversion from Event both set them).
            model.applyLaunch(seq: seq, t: event.t, extras[Int(event.extraIndex)].launch!, &rules)
        default:
            guard model.isRunning else {
                // Flagged, with no other effect.
                rules.observe(.outsideRun(event), &model)
                return
            }
            model.applyInRun(seq: seq, event, extras: extras, &rules)
        }
        if configuration.explore { rules.afterEvent(seq: seq, model) }
        if rules.hasUnsettled { settle(below: watermark(after: seq)) }
    }

    /// The lowest seq a finding may still be anchored at after event `seq`:
    /// an undecided background save, an open exposure stretch, an app rule's
    /// undecided finding, or the next event.
    @inline(__always)
    func watermark(after seq: UInt64) -> UInt64 {
        rules.undecided(below: model.undecidedSaves(below: seq + 1))
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64) {
        rules.settle(below: mark, model)
    }

    /// Ends the trace: state sent to the background and never saved becomes
    /// `missed-background-save`, an open exposure stretch closes, and the
    /// findings are sorted. Call it once, after the last event.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        model.finishTrace(&rules)
        rules.finish(model)
        settle(below: .max)
    }

    /// The findings that are final and not yet taken, sorted by seq then rule.
    /// After ``finish()`` every finding is final.
    public var findings: [Finding] { rules.findings.settled }

    /// Whether findings are final and not yet taken.
    var hasSettled: Bool { !rules.findings.settled.isEmpty }

    /// Hands over the findings that are final so far, sorted by seq then rule,
    /// and forgets them: call it after each ``apply(seq:_:)`` to stream a
    /// report in memory that does not grow with the trace.
    public mutating func takeSettledFindings() -> [Finding] {
        defer { rules.findings.settled.removeAll(keepingCapacity: true) }
        return rules.findings.settled
    }

    // MARK: The model, for reports

    /// Whether a process is running: launched and not terminated.
    var isRunning: Bool { model.isRunning }

    /// Open windows, in no particular order.
    var openWindows: [OpenWindow] { model.openWindows }

    /// The current (or last) run.
    var run: RunState { model.run }

    /// The phase of `window`: its own, or the app-level phase it follows.
    func phase(of window: OpenWindow) -> ScenePhase { model.phase(of: window) }

    /// The aggregate app phase.
    var appPhase: ScenePhase { model.appPhase }

    /// The open window whose id is `id`, if any (a scan: for reports, not the replay path).
    func openWindow(named id: String) -> OpenWindow? { model.openWindow(named: id) }
}
