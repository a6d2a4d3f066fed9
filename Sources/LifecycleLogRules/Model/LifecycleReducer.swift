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

    /// What the trace says happened so far, in the current process.
    var model = LifecycleModel()
    /// The rules, with the findings they reported, for the current process.
    var rules: RuleSet
    var finished = false
    /// The process whose model and rule state are ``model`` and ``rules``. Trace format 2
    /// gives every process its own runs, windows, phases and keys (an app and its widget).
    var currentProcess: Name = ReplayEvent.mainProcess
    /// The other processes seen so far, with their model and rule state set aside.
    var parked: [Name: ParkedProcess] = [:]
    /// The lowest seq each set-aside process may still anchor a finding at, when it may: what a
    /// process set aside holds back does not change while it is (but with `--explore`, where
    /// ``exposeParked(seq:)`` runs its rules), so it is computed once, when it is set aside.
    var parkedMarks = ParkedWatermarks()
    /// `--explore`: the set-aside processes whose `kill-exposure` stretch is going on.
    var exposedParked = ExposedProcesses()
    /// `--explore`: ``GroupKeys/epoch`` after the last event, and that event's seq.
    var exposureEpoch: UInt64 = 0
    var finishedSeq: UInt64 = 0
    /// The `group` keys, shared by every process.
    var groupKeys = GroupKeys()
    /// The unknown event kinds seen so far, in any process.
    var unknownKinds: Set<Name> = []
    /// The app's own rules as given, for the rule state of each new process.
    let customRules: [any LifecycleRule]

    /// The number of events applied.
    public private(set) var eventCount: UInt64 = 0
    /// The number of runs (launches) seen.
    public var runCount: Int { parked.values.reduce(model.runCount) { $0 + $1.model.runCount } }
    /// The seq of the last event applied.
    public private(set) var lastSeq: UInt64 = 0

    /// Creates a reducer that applies `configuration`.
    public init(configuration: RuleConfiguration = RuleConfiguration()) {
        self.configuration = configuration
        rules = RuleSet(configuration: configuration, custom: [])
        customRules = []
    }

    /// Creates a reducer that applies `configuration` and runs an app's own rules beside the catalogue's.
    ///
    /// - Parameters:
    ///   - configuration: the catalogue's rules to run and their severities.
    ///   - customRules: the app's own rules, each with an ``LifecycleRule/id`` of its own that is
    ///     not a catalogue id.
    /// - Throws: `LifecycleLogError` `invalidArgument` when an id is empty, has a character other
    ///   than ASCII letters, digits, `-`, `_` and `.`, is a catalogue id, or is used twice; the
    ///   message names the id and what to do (every API that takes app rules says the same).
    public init(configuration: RuleConfiguration = RuleConfiguration(), customRules: [any LifecycleRule]) throws {
        if let problem = CustomRules.problem(with: customRules) { throw LifecycleLogError(.invalidArgument, problem) }
        self.configuration = configuration
        rules = RuleSet(configuration: configuration, custom: customRules)
        self.customRules = customRules
    }

    // Sendable: every stored property is a value type of Sendable parts.

    /// The strings behind the model's names.
    package var names: NameTable {
        get { model.names }
        _modify { yield &model.names }
    }

    /// Applies one event. Events must come in seq order, each once.
    public mutating func apply(seq: UInt64, _ event: LifecycleEvent) {
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
    @inline(__always)
    mutating func apply(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        eventCount += 1
        lastSeq = seq
        if event.process != currentProcess && event.kind != .mark {
            switchProcess(to: event.process, judgingRun: event.kind == .launch)
            if !model.deferredGroupEffects.isEmpty, event.kind != .launch { takeDeferredGroupEffects(runJudged: false) }
        }
        rules.now = EventTime(seq: seq, t: event.t)
        switch event.kind {
        case .unknown:
            if event.extraIndex != ReplayEvent.noExtra, let diagnostic = extras[Int(event.extraIndex)].kill?.diagnostic {
                // A `diagnostic` (stored as a kind of its own name): it changes nothing, wherever it stands.
                rules.observe(.diagnostic(diagnostic), &model)
            } else if unknownKinds.insert(event.name).inserted {
                // Once per kind in the whole trace, whichever process it names (rules.md, `unknown-event`).
                rules.observe(.unknownEvent(kind: event.name), &model)
            }
        case .mark:
            break
        case .launch:
            applyLaunch(seq: seq, event, extras: extras)
        default:
            guard model.isRunning else {
                // Flagged, with no other effect (but an event all the same: other processes' stretches go on).
                rules.observe(.outsideRun(event), &model)
                finishEvent(seq: seq)
                return
            }
            // One test on the common path: a key of another scope than `group` or `document`, in a
            // trace with no `group` key yet (every version 1 trace), goes straight to the model.
            if event.scope.isAcrossWindows || !groupKeys.isEmpty {
                applyAcrossWindows(seq: seq, event, extras: extras)
            } else {
                model.applyInRun(seq: seq, event, extras: extras, &rules)
            }
        }
        finishEvent(seq: seq)
    }

    /// A launch: once a run, so out of line (its fields are copied out of the extras), keeping
    /// the per-event `apply` small.
    @inline(never)
    private mutating func applyLaunch(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        // `!`: every launch carries its fields (the decoder and the conversion from LifecycleEvent both set them).
        model.applyLaunch(seq: seq, t: event.t, extras[Int(event.extraIndex)].launch!, &rules)
        if !groupKeys.isEmpty { groupKeys.launched(GroupKeys.Writer(process: currentProcess, instance: model.run.appWriter), seq: seq) }
    }

    /// An event in a run that touches a `group` or `document` key (trace format 2), or any
    /// event once a `group` key was seen (a window's `open` and `dismiss` start and end its view
    /// of them): out of line, so that the common path stays short.
    @inline(never)
    private mutating func applyAcrossWindows(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        if event.scope == .group || (!groupKeys.isEmpty && (event.kind == .open || event.kind == .dismiss)) {
            applyGroup(seq: seq, event)
        }
        if event.scope == .document && (event.kind == .write || event.kind == .read) {
            model.applyInRun(seq: seq, documentKey(event, extras: extras), extras: extras, &rules)
        } else {
            model.applyInRun(seq: seq, event, extras: extras, &rules)
        }
        if !groupKeys.isEmpty { afterGroupEvent(seq: seq, event) }
    }

    @inline(__always)
    private mutating func finishEvent(seq: UInt64) {
        if configuration.explore {
            rules.afterEvent(seq: seq, &model)
            if groupKeys.epoch != exposureEpoch {
                if !exposedParked.isEmpty { exposeParked(seq: seq) }
                exposureEpoch = groupKeys.epoch
            }
            finishedSeq = seq
        }
        if rules.hasUnsettled { settle(below: watermark(after: seq)) }
    }

    /// A `document` key (trace format 2) is one key per document: the event's key is renamed
    /// to the key of its document, which the `document` field names or else the window's
    /// presented value (canonical JSON), or for a window with neither, an untitled document of
    /// its own. The model then treats it as a key shared by every window of the process that
    /// writes or reads it, which is what the windows showing one document are.
    @inline(never)
    private mutating func documentKey(_ event: ReplayEvent, extras: [ReplayExtra]) -> ReplayEvent {
        var event = event
        var document: String?
        let window = event.window == ReplayEvent.noWindow ? nil : model.windowIndex(event.window)
        if event.extraIndex != ReplayEvent.noExtra, extras[Int(event.extraIndex)].document != ReplayEvent.noName {
            var bytes: [UInt8] = []
            JSONWriter.writeString(names[extras[Int(event.extraIndex)].document], into: &bytes)
            document = String(decoding: bytes, as: UTF8.self)
        } else if let window {
            document = model.openWindows[window].canonicalValue
        }
        // \u{1}: untitled, shown by that window only: this window, not a later one with its id.
        let identity = document ?? LifecycleModel.untitledDocument(window: names[event.window], instance: window.map { model.openWindows[$0].instance } ?? 0)
        event.name = names.intern(names[event.name] + "\u{0}" + identity)
        // A window shows the documents it writes or reads a key of (trace-format.md, Readings 11).
        if let window { model.show(document: identity, in: window) }
        return event
    }

    /// The lowest seq a finding may still be anchored at after event `seq`:
    /// an undecided background save, an open exposure stretch, an app rule's
    /// undecided finding, or the next event.
    @inline(__always)
    package func watermark(after seq: UInt64) -> UInt64 {
        let mark = rules.undecided(below: model.undecidedSaves(below: seq + 1))
        return parked.isEmpty ? mark : parkedWatermark(below: mark)
    }

    /// The lowest of `mark` and the seqs the set-aside processes may still anchor a finding at.
    @inline(never)
    func parkedWatermark(below mark: UInt64) -> UInt64 {
        min(mark, parkedMarks.lowest)
    }

    /// What `process` holds back while set aside (`.max`: nothing).
    static func heldBack(by process: ParkedProcess) -> UInt64 {
        process.rules.undecidedWhileParked(below: process.model.undecidedSaves(below: .max))
    }

    /// What the whole trace knows of `group` keys: a window's open starts its view of them; a
    /// read or write of one is checked against every process's writes (`lost-update`).
    @inline(never)
    mutating func applyGroup(seq: UInt64, _ event: ReplayEvent) {
        // The window's instance (for an `open`, the one the model is about to give it), or the run's app.
        let instance = event.window == ReplayEvent.noWindow ? model.run.appWriter
            : event.kind == .open ? model.nextInstance : model.windowIndex(event.window).map { model.openWindows[$0].instance } ?? -1
        let writer = GroupKeys.Writer(process: currentProcess, instance: instance)
        switch event.kind {
        case .open where model.windowIndex(event.window) == nil:  // an id already open: refused
            groupKeys.start(writer, seq: seq)
        case .dismiss where model.windowIndex(event.window) != nil:
            groupKeys.end(writer)
        case .read where event.window == ReplayEvent.noWindow || model.windowIndex(event.window) != nil:
            if groupKeys.isEmpty { startGroupWriters() }
            groupKeys.read(event.name, by: writer, version: event.versionValue, seq: seq)
        case .write where event.window == ReplayEvent.noWindow || model.windowIndex(event.window) != nil:
            if groupKeys.isEmpty { startGroupWriters() }
            guard let lost = groupKeys.write(event.name, by: writer, base: event.versionValue, seq: seq) else { return }
            func processName(_ p: Name) -> String { p == ReplayEvent.mainProcess ? "the app" : "process \"\(names[p])\"" }
            let who = event.window == ReplayEvent.noWindow ? "The app" : "Window \(names[event.window])"
            rules.observe(GroupWriteLoss(key: names[event.name], writer: who, process: processName(currentProcess), base: lost.base,
                                         baseGiven: event.versionValue != nil, seenSeq: lost.seen.seq, current: lost.current,
                                         otherProcess: processName(lost.other.process), otherSeq: lost.otherSeq), at: seq)
        default:
            break
        }
    }

    /// The first `group` key of the trace: every window open now, and the app of every running
    /// process, saw it at version 0 from its `open` or `launch`.
    private mutating func startGroupWriters() {
        groupKeys.started = true
        startTrackingGroupKeys()
        func start(_ process: Name, _ model: LifecycleModel) {
            guard model.isRunning else { return }
            groupKeys.start(GroupKeys.Writer(process: process, instance: model.run.appWriter), seq: model.run.launchSeq)
            for window in model.openWindows { groupKeys.start(GroupKeys.Writer(process: process, instance: window.instance), seq: window.openSeq) }
        }
        start(currentProcess, model)
        for (process, parkedProcess) in parked { start(process, caughtUp(parkedProcess).model) }
    }

    /// Sets the current process's model and rule state aside and takes up `process`'s (new
    /// ones for a process not seen before). The name table and the findings go along: names
    /// and the order of findings are the trace's, not a process's.
    @inline(never)
    mutating func switchProcess(to process: Name, judgingRun: Bool = false) {
        var process = process
        if process != ReplayEvent.mainProcess && model.names[process].isEmpty { process = ReplayEvent.mainProcess }  // "process":"" is the main app
        guard process != currentProcess else { return }
        var names = NameTable()
        swap(&names, &model.names)
        var queue = FindingQueue(configuration: configuration)
        swap(&queue, &rules.findings)
        let setAside = ParkedProcess(model: model, rules: rules, groupEpoch: groupKeys.epoch)
        if configuration.explore, let keys = Self.exposedGroupKeys(setAside.model) { exposedParked.insert(currentProcess, holding: keys) }
        parkedMarks.set(currentProcess, Self.heldBack(by: setAside))
        parked[currentProcess] = setAside
        var next: ParkedProcess
        var carryExposure = false
        if var taken = parked.removeValue(forKey: process) {
            parkedMarks.remove(process)
            catchUp(&taken, deferring: judgingRun)
            next = taken
            if exposedParked.contains(process) {
                exposedParked.remove(process)
                carryExposure = true
            }
        } else {
            next = ParkedProcess(model: LifecycleModel(), rules: RuleSet(configuration: configuration, custom: customRules), groupEpoch: groupKeys.epoch)
        }
        if !groupKeys.isEmpty { next.model.tracksGroupKeys = true }
        swap(&next.model.names, &names)
        swap(&next.rules.findings, &queue)
        model = next.model
        rules = next.rules
        rules.now = EventTime(seq: lastSeq, t: 0)
        rules.findings.process = process == ReplayEvent.mainProcess ? nil : model.names[process]
        currentProcess = process
        // Its stretch went on through every event since an event last looked at it (what other
        // processes did since touched none of its unsaved keys: those would have looked).
        if carryExposure {
            var view = Self.exposureView(model)
            rules.afterEvent(seq: finishedSeq, &view)
        }
    }

    /// `--explore`: every event of any process extends or ends each other running process's
    /// `kill-exposure` stretch (rules.md, Readings 21). Only an event that changes a `group` key a
    /// set-aside process holds unsaved can end its stretch (``ExposedProcesses``): those processes'
    /// rules run, with the trace's names and findings lent as ``switchProcess(to:)`` lends them,
    /// first at the event before this one (the stretch went on until then), then at this one.
    @inline(never)
    mutating func exposeParked(seq: UInt64) {
        for process in exposedParked.holding(groupKeys.changed(since: exposureEpoch, limit: .max)) {
            guard var other = parked.removeValue(forKey: process) else { continue }
            exposedParked.remove(process)
            swap(&other.model.names, &model.names)
            swap(&other.rules.findings, &rules.findings)
            let reporting = other.rules.findings.process
            other.rules.findings.process = process == ReplayEvent.mainProcess ? nil : other.model.names[process]
            var before = Self.exposureView(other.model)
            other.rules.afterEvent(seq: finishedSeq, &before)
            // Kept aside, not applied: if its run turns out to have ended unrecorded, its end is
            // judged by the state after its last event (rules.md, Readings 11).
            catchUp(&other, deferring: true)
            // A run waiting for its end after its willTerminate: its stretches count only if a
            // terminate or kill ends it, and then with what other processes did meanwhile.
            var view = Self.exposureView(other.model)
            other.rules.afterEvent(seq: seq, &view)
            other.rules.findings.process = reporting
            swap(&other.rules.findings, &rules.findings)
            swap(&other.model.names, &model.names)
            parkedMarks.set(process, Self.heldBack(by: other))
            if let keys = Self.exposedGroupKeys(view) { exposedParked.insert(process, holding: keys) }
            parked[process] = other
        }
    }

    /// The state `kill-exposure` judges a set-aside process by: its own, with what other processes
    /// did to `group` keys meanwhile (kept aside, ``LifecycleModel/deferredGroupEffects``, until its
    /// next event or its end says which state holds).
    static func exposureView(_ model: LifecycleModel) -> LifecycleModel {
        guard !model.deferredGroupEffects.isEmpty else { return model }
        var ending = model
        ending.applyDeferredGroupEffects()
        return ending
    }

    /// A process's unsaved `group` keys when a kill would lose its unsaved state
    /// (`kill-exposure`'s test), or `nil` when it would not.
    static func exposedGroupKeys(_ model: LifecycleModel) -> [Name]? {
        guard model.wouldLoseStateToKill else { return nil }
        return model.dirtyGroupKeyNames()
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64) {
        rules.settle(below: mark, &model)
    }

    /// Ends the trace: state sent to the background and never saved becomes
    /// `missed-background-save`, an open exposure stretch closes, and the
    /// findings are sorted. Call it once, after the last event.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        finishProcess()
        for process in parked.keys.sorted() {
            switchProcess(to: process)
            takeDeferredGroupEffects(runJudged: model.awaitsEndAfterWillTerminate)
            finishProcess()
        }
        settle(below: .max)
    }

    /// Decides what is still open in the current process at the end of the trace.
    private mutating func finishProcess() {
        model.finishTrace(&rules)
        rules.finish(&model)
        rules.decideWaiting(&model)
    }

    /// The findings that are final and not yet taken, sorted by seq then rule.
    /// After ``finish()`` every finding is final.
    public var findings: [Finding] { rules.findings.settled }

    /// Whether findings are final and not yet taken.
    package var hasSettled: Bool { !rules.findings.settled.isEmpty }

    /// Hands over the findings that are final so far, sorted by seq then rule,
    /// and forgets them: call it after each ``apply(seq:_:)`` to stream a
    /// report in memory that does not grow with the trace.
    public mutating func takeSettledFindings() -> [Finding] {
        defer { rules.findings.settled.removeAll(keepingCapacity: true) }
        return rules.findings.settled
    }

    // MARK: The model, for reports

    /// Whether a process is running: launched and not terminated.
    package var isRunning: Bool { model.isRunning }

    /// Open windows, in no particular order.
    package var openWindows: [OpenWindow] { model.openWindows }

    /// The current (or last) run.
    package var run: RunState { model.run }

    /// The phase of `window`: its own, or the app-level phase it follows.
    package func phase(of window: OpenWindow) -> LifecyclePhase { model.phase(of: window) }

    /// The aggregate app phase.
    package var appPhase: LifecyclePhase { model.appPhase }

    /// The open window whose id is `id`, if any (a scan: for reports, not the replay path).
    func openWindow(named id: String) -> OpenWindow? { model.openWindow(named: id) }
}

/// A process's model and rule state while events of another process are applied.
package struct ParkedProcess: Sendable {
    var model: LifecycleModel
    var rules: RuleSet
    /// ``GroupKeys/epoch`` when it was set aside: what it has to catch up on when taken up again
    /// (``LifecycleReducer/caughtUp(_:)``).
    var groupEpoch: UInt64
}

extension StateScope {
    /// `group` or `document`: a key that is not one window's, nor one process's alone
    /// (``LifecycleReducer`` routes its reads and writes before the model sees them).
    @inline(__always)
    var isAcrossWindows: Bool { self == .group || self == .document }
}
