/// Every rule of the catalogue, as concrete values (so each transition reaches
/// them by static dispatch), and an app's own rules (``LifecycleRule``), reached
/// through an existential only when there are some. It routes each
/// ``Transition`` to the rules that listen to it; the rules report into
/// ``findings``.
package struct RuleSet: Sendable {
    var findings: FindingQueue
    /// The event being applied.
    var now = EventTime()

    var unknownEvent = UnknownEvent()
    var eventBeforeLaunch = EventBeforeLaunch()
    var unknownWindow = UnknownWindow()
    var unsupportedScene = UnsupportedScene()
    var undeclaredScene = UndeclaredScene()
    var duplicateWindow = DuplicateWindow()
    var unsavedDismiss = UnsavedDismiss()
    var unsavedAtExit = UnsavedAtExit()
    var unfinishedSave = UnfinishedSave()
    var uncleanExit = UncleanExit()
    var slowLaunch: SlowLaunch
    var launchCrashLoop: LaunchCrashLoop
    var phaseSkip = PhaseSkip()
    var appPhaseMismatch = AppPhaseMismatch()
    var activityInBackground = ActivityInBackground()
    var missedBackgroundSave = MissedBackgroundSave()
    var lostUpdate = LostUpdate()
    var sceneStorageLost = SceneStorageLost()
    var killExposure = KillExposure()
    /// The app's own rules; `nil` when it has none.
    var custom: CustomRules?
    /// Whether there are app rules (``custom`` is not `nil`), as a plain flag for the hot path.
    let hasCustom: Bool

    init(configuration: RuleConfiguration, custom: [any LifecycleRule]) {
        findings = FindingQueue(configuration: configuration)
        slowLaunch = SlowLaunch(limit: configuration.slowLaunchLimit)
        launchCrashLoop = LaunchCrashLoop(limit: configuration.launchCrashLoopLimit)
        self.custom = custom.isEmpty ? nil : CustomRules(rules: custom)
        hasCustom = !custom.isEmpty
    }

    /// Whether anyone hears the transitions no catalogue rule listens to (``Transition`` marks
    /// them "app rules only"): only an app's own rules do. The model skips them otherwise.
    @inline(__always)
    var hearsAppOnly: Bool { hasCustom }

    /// Whether anyone hears a window's own phase change from `from` to `to`: `phase-skip` only
    /// when it skips inactive (`app-phase-mismatch` hears app-level changes only), or app rules.
    /// Asked before the transition is made: most phase events need no call at all.
    @inline(__always)
    func hearsWindowPhase(from: LifecyclePhase, to: LifecyclePhase) -> Bool {
        hasCustom || PhaseSkip.skipsInactive(from, to)
    }

    /// Whether anyone hears a write of an `app` or `shared` key based on `base` while it is at
    /// `current`: `lost-update` only when the base is behind, or app rules.
    @inline(__always)
    func hearsSharedWrite(base: UInt64, current: UInt64) -> Bool {
        hasCustom || base < current
    }

    /// Hears one transition, with the model as it is at that moment. The model is `inout`
    /// only so that it is passed by address, not copied (it is large, and this is the hot
    /// path); nothing here changes it: the rules see it read-only.
    ///
    /// The transitions of most events are checked here; those that come at most once per event
    /// and set off more work go on to ``observeRare(_:_:)``.
    mutating func observe(_ transition: Transition, _ model: LifecycleModel) {
        switch transition {
        case .phaseChanged:
            phaseSkip.observe(transition, at: now, model, &findings)
            appPhaseMismatch.observe(transition, at: now, model, &findings)
        case .keyWritten:
            lostUpdate.observe(transition, at: now, model, &findings)
        case .keyRead:
            sceneStorageLost.observe(transition, at: now, model, &findings)
        case .appPhaseChanged:
            slowLaunch.observe(transition, at: now, model, &findings)
        case .keySaved, .activityStarted, .activityStopped:
            break
        default:
            observeRare(transition, model)
        }
        if custom != nil { observeCustom(transition, model) }
    }

    /// The transitions that come at most once per event and set off more work.
    @inline(never)
    private mutating func observeRare(_ transition: Transition, _ model: LifecycleModel) {
        switch transition {
        case .unknownEvent:
            unknownEvent.observe(transition, at: now, model, &findings)
        case .outsideRun:
            eventBeforeLaunch.observe(transition, at: now, model, &findings)
        case .unknownWindow, .windowIdReused:
            unknownWindow.observe(transition, at: now, model, &findings)
        case .runStarted:
            unsupportedScene.observe(transition, at: now, model, &findings)
        case .runEnded:
            unsavedAtExit.observe(transition, at: now, model, &findings)
            unfinishedSave.observe(transition, at: now, model, &findings)
            uncleanExit.observe(transition, at: now, model, &findings)
            slowLaunch.observe(transition, at: now, model, &findings)
            launchCrashLoop.observe(transition, at: now, model, &findings)
            killExposure.observe(transition, at: now, model, &findings)
        case .windowOpened:
            undeclaredScene.observe(transition, at: now, model, &findings)
            duplicateWindow.observe(transition, at: now, model, &findings)
        case .windowDismissed:
            unsavedDismiss.observe(transition, at: now, model, &findings)
        case .crossedBackground:
            activityInBackground.observe(transition, at: now, model, &findings)
        case .backgroundSaveMissed:
            missedBackgroundSave.observe(transition, at: now, model, &findings)
        case .expired:
            unfinishedSave.observe(transition, at: now, model, &findings)
        case .phaseChanged, .keyWritten, .keyRead, .appPhaseChanged, .keySaved, .activityStarted, .activityStopped:
            break  // in observe(_:_:)
        }
    }

    /// Hands `transition` to the app's own rules, in public form.
    @inline(never)
    private mutating func observeCustom(_ transition: Transition, _ model: LifecycleModel) {
        guard let event = LifecycleTransition(transition, model) else { return }
        custom?.observe(event, at: now, model, &findings)
    }

    /// After each event (in a run, or launching one), with `--explore`.
    /// A `group` write that overwrote another process's change unseen (the reducer sees it across processes).
    mutating func observe(_ loss: GroupWriteLoss, at seq: UInt64) {
        lostUpdate.observe(loss, at: seq, &findings)
    }

    /// ``undecided(below:)`` of a process set aside while another runs: its background saves
    /// still waiting to be decided hold back findings too, as they cannot settle until it runs again.
    func undecidedWhileParked(below mark: UInt64) -> UInt64 {
        var mark = undecided(below: mark)
        if let missed = missedBackgroundSave.missed.keys.min() { mark = min(mark, missed) }
        return mark
    }

    mutating func afterEvent(seq: UInt64, _ model: LifecycleModel) {
        killExposure.afterEvent(seq: seq, model, &findings)
    }

    /// Whether a finding waits to become final.
    @inline(__always)
    var hasUnsettled: Bool { !findings.unsettled.isEmpty || !missedBackgroundSave.isEmpty }

    /// The lowest of `mark` and the seqs the rules may still anchor a finding at.
    @inline(__always)
    func undecided(below mark: UInt64) -> UInt64 {
        var mark = mark
        if let first = killExposure.firstSeq { mark = min(mark, first) }
        if let custom { mark = min(mark, custom.undecided(below: mark)) }
        return mark
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64, _ model: LifecycleModel) {
        if !missedBackgroundSave.isEmpty { missedBackgroundSave.settle(below: mark, model, &findings) }
        findings.settle(below: mark)
    }

    /// Turns every background save decided missed into a finding (the end of the trace).
    mutating func decideMissedSaves(_ model: LifecycleModel) {
        if !missedBackgroundSave.isEmpty { missedBackgroundSave.settle(below: .max, model, &findings) }
    }

    /// The end of the trace: what is still open is decided.
    mutating func finish(_ model: LifecycleModel) {
        killExposure.close(model, &findings)
        custom?.finish(at: now, model, &findings)
    }
}
