/// Scene phases: each window's (its own, or the app-level one it follows),
/// the aggregate app phase, and what changing them sets off.
extension LifecycleReducer {
    /// The phase of `window`: its own, or the app-level phase while it has had none.
    func phase(of window: OpenWindow) -> ScenePhase {
        window.ownPhase ?? (hasRun ? run.appLevelPhase : .inactive)
    }

    /// The aggregate app phase (Apple's `ScenePhase` rule): `active` if any
    /// window is, else `inactive` if any is, else `background`; with no
    /// window open, the app-level phase.
    var appPhase: ScenePhase {
        let appLevel = hasRun ? run.appLevelPhase : .background
        guard !openWindows.isEmpty else { return appLevel }
        var sawInactive = false
        for i in openWindows.indices {
            switch openWindows[i].ownPhase ?? appLevel {
            case .active: return .active
            case .inactive: sawInactive = true
            case .background: break
            }
        }
        return sawInactive ? .inactive : .background
    }

    /// Notes every window's phase before an event that may change phases
    /// (in ``OpenWindow/phaseBefore``) and returns the app phase.
    mutating func notePhasesBefore() -> ScenePhase {
        let appLevel = run.appLevelPhase
        for i in openWindows.indices { openWindows[i].phaseBefore = openWindows[i].ownPhase ?? appLevel }
        return appPhase
    }

    mutating func applyPhase(seq: UInt64, t: Double, _ newPhase: ScenePhase, window index: Int?) {
        guard hasRun else { return }
        let appLevelBefore = run.appLevelPhase
        let appBefore = notePhasesBefore()
        if let index {
            let from = phase(of: openWindows[index])
            if from != newPhase { checkPhaseSkip(seq: seq, from: from, to: newPhase, subject: { "window \($0.names[$0.openWindows[index].id])" }) }
            openWindows[index].ownPhase = newPhase
        } else {
            if appLevelBefore != newPhase { checkPhaseSkip(seq: seq, from: appLevelBefore, to: newPhase, subject: { _ in "the app-level phase" }) }
            checkAppPhaseAgreement(seq: seq, newPhase)
            run.appLevelPhase = newPhase
            run.lastAppLevelPhaseSeq = seq
        }
        phasesChanged(seq: seq, t: t, appBefore: appBefore, byPhaseEvent: true)
    }

    private mutating func checkPhaseSkip(seq: UInt64, from: ScenePhase, to: ScenePhase, subject: (Self) -> String) {
        let platform = run.platform
        guard hasRun, platform != .macOS else { return }
        let skipped = (from == .background && to == .active) || (from == .active && to == .background)
        guard skipped else { return }
        report(.phaseSkip, at: seq, related: [],
               "On \(platform.rawValue), \(subject(self)) went straight from \(from.rawValue) to \(to.rawValue) without inactive between; UIKit's scene life cycle always passes through foreground-inactive. If the recorder missed the inactive change, observe scenePhase in every window's root view; if the trace is hand-written, add the inactive step.")
    }

    private mutating func checkAppPhaseAgreement(seq: UInt64, _ newPhase: ScenePhase) {
        var any = false, active = false, inactive = false
        for i in openWindows.indices {
            guard let own = openWindows[i].ownPhase else { continue }
            any = true
            if own == .active { active = true } else if own == .inactive { inactive = true }
        }
        guard any else { return }
        let aggregate: ScenePhase = active ? .active : inactive ? .inactive : .background
        guard aggregate != newPhase else { return }
        report(.appPhaseMismatch, at: seq, related: [],
               "The app-level phase became \(newPhase.rawValue), but the windows with phases of their own add up to \(aggregate.rawValue). The App's scenePhase is the aggregate of its scenes; record the App's onChange(of: scenePhase) and each window's from the same source, in the order they happen.")
    }

    /// Compares the phases after an event with those noted before it
    /// (``notePhasesBefore()``) and applies what the changes set off:
    /// background saves pending or decided, activities left running in the
    /// background, and the first time the app became active.
    mutating func phasesChanged(seq: UInt64, t: Double, appBefore: ScenePhase, byPhaseEvent: Bool) {
        guard hasRun else { return }
        let appLevel = run.appLevelPhase
        var crossed: [(id: Name, intoBackground: Bool)] = []
        for i in openWindows.indices {
            guard let old = openWindows[i].phaseBefore else { continue }  // opened by this event
            let new = openWindows[i].ownPhase ?? appLevel
            if old != .background && new == .background && byPhaseEvent {
                crossed.append((openWindows[i].id, true))
            } else if old == .background && new != .background && openWindows[i].pendingBackground != nil {
                crossed.append((openWindows[i].id, false))
            }
        }
        var running: [String] = []  // activities left running in the background by this event
        var runningSince: [UInt64] = []
        if !crossed.isEmpty {
            crossed.sort { names.precedes($0.id, $1.id) }
            for (id, intoBackground) in crossed {
                // `!`: the ids were just read from openWindows.
                let index = windowIndex(id)!
                if intoBackground {
                    let window = openWindows[index]
                    var unsaved = Set<KeyRef>()
                    for (i, name) in window.sceneKeys.keys.enumerated() where window.sceneKeys.values[i].isDirty {
                        unsaved.insert(window.sceneKeyRef(name))
                    }
                    if !unsaved.isEmpty { openWindows[index].pendingBackground = PendingSave(seq: seq, keys: unsaved) }
                    if !window.activities.isEmpty {
                        running.append("window \(names[id])'s \(quotedList(window.activities.keys))")
                        runningSince += window.activities.values
                    }
                } else if let pending = openWindows[index].pendingBackground {
                    openWindows[index].pendingBackground = nil
                    recordMissedSave(pending)
                }
            }
        }
        let newApp = appPhase
        if appBefore != .background && newApp == .background {
            let unsaved = dirtyKeys().filter { $0.scope != .scene }
            if !unsaved.isEmpty { run.pendingApp = PendingSave(seq: seq, keys: unsaved) }
            if !run.appActivities.isEmpty {
                let activities = run.appActivities
                running.append("the app-wide \(quotedList(activities.keys))")
                runningSince += activities.values
            }
        } else if appBefore == .background && newApp != .background, let pending = run.pendingApp {
            run.pendingApp = nil
            recordMissedSave(pending)
        }
        if !running.isEmpty {
            report(.activityInBackground, at: seq, related: runningSince,
                   "Went to the background with \(running.joined(separator: " and ")) still running. Stop timers, animations and sessions when the scene phase leaves .active (onChange(of: scenePhase)) and restart them when it returns, or declare the background mode they need.")
        }
        if newApp == .active && !run.everActive {
            run.everActive = true
            let (launchSeq, launchT, background) = (run.launchSeq, run.launchT, run.isBackgroundLaunch)
            if !background, t - launchT > configuration.slowLaunchLimit {
                report(.slowLaunch, at: seq, related: [launchSeq],
                       "The app first became active \(JSONWriter.number(t - launchT)) ms after its launch at seq \(launchSeq); the launch watchdog kills apps that take about \(JSONWriter.number(configuration.slowLaunchLimit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
            }
        }
    }
}
