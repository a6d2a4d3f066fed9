/// Scene phases: each window's (its own, or the app-level one it follows),
/// the aggregate app phase, and what changing them sets off.
extension LifecycleReducer {
    /// The phase of `window`: its own, or the app-level phase while it has had none.
    func phase(of window: OpenWindow) -> ScenePhase {
        window.ownPhase ?? run?.appLevelPhase ?? .inactive
    }

    /// The aggregate app phase (Apple's `ScenePhase` rule): `active` if any
    /// window is, else `inactive` if any is, else `background`; with no
    /// window open, the app-level phase.
    var appPhase: ScenePhase {
        let appLevel = run?.appLevelPhase ?? .background
        guard !windows.isEmpty else { return appLevel }
        var sawInactive = false
        // Through indices, reading one field: iterating the values would copy every window.
        for index in windows.indices {
            switch windows.values[index].ownPhase ?? appLevel {
            case .active: return .active
            case .inactive: sawInactive = true
            case .background: break
            }
        }
        return sawInactive ? .inactive : .background
    }

    /// The phases before an event that may change them.
    struct PhaseSnapshot {
        var app: ScenePhase
        /// (instance, phase) of each open window.
        var windows: [(instance: Int, phase: ScenePhase)]

        func phase(ofInstance instance: Int) -> ScenePhase? {
            windows.first { $0.instance == instance }?.phase
        }
    }

    func phaseSnapshot() -> PhaseSnapshot {
        let appLevel = run?.appLevelPhase ?? .inactive
        var phases: [(instance: Int, phase: ScenePhase)] = []
        phases.reserveCapacity(windows.count)
        for index in windows.indices {
            phases.append((windows.values[index].instance, windows.values[index].ownPhase ?? appLevel))
        }
        return PhaseSnapshot(app: appPhase, windows: phases)
    }

    mutating func applyPhase(seq: UInt64, t: Double, _ newPhase: ScenePhase, window: WindowID?) {
        guard let appLevelBefore = run?.appLevelPhase else { return }
        let before = phaseSnapshot()
        if let window, let open = windows[window] {
            let from = phase(of: open)
            checkPhaseSkip(seq: seq, from: from, to: newPhase, subject: "window \(window)")
            windows[window]?.ownPhase = newPhase
        } else {
            checkPhaseSkip(seq: seq, from: appLevelBefore, to: newPhase, subject: "the app-level phase")
            checkAppPhaseAgreement(seq: seq, newPhase)
            run?.appLevelPhase = newPhase
            run?.lastAppLevelPhaseSeq = seq
        }
        phasesChanged(seq: seq, t: t, from: before, byPhaseEvent: true)
    }

    private mutating func checkPhaseSkip(seq: UInt64, from: ScenePhase, to: ScenePhase, subject: String) {
        guard let platform = run?.platform, platform != .macOS else { return }
        let skipped = (from == .background && to == .active) || (from == .active && to == .background)
        guard skipped else { return }
        report(.phaseSkip, at: seq, related: [],
               "On \(platform.rawValue), \(subject) went straight from \(from.rawValue) to \(to.rawValue) without inactive between; UIKit's scene life cycle always passes through foreground-inactive. If the recorder missed the inactive change, observe scenePhase in every window's root view; if the trace is hand-written, add the inactive step.")
    }

    private mutating func checkAppPhaseAgreement(seq: UInt64, _ newPhase: ScenePhase) {
        let own = windows.values.compactMap(\.ownPhase)
        guard !own.isEmpty else { return }
        let aggregate: ScenePhase = own.contains(.active) ? .active : own.contains(.inactive) ? .inactive : .background
        guard aggregate != newPhase else { return }
        report(.appPhaseMismatch, at: seq, related: [],
               "The app-level phase became \(newPhase.rawValue), but the windows with phases of their own add up to \(aggregate.rawValue). The App's scenePhase is the aggregate of its scenes; record the App's onChange(of: scenePhase) and each window's from the same source, in the order they happen.")
    }

    /// Compares the phases after an event with `before` and applies what the
    /// changes set off: background saves pending or decided, activities left
    /// running in the background, and the first time the app became active.
    mutating func phasesChanged(seq: UInt64, t: Double, from before: PhaseSnapshot, byPhaseEvent: Bool) {
        guard run != nil else { return }
        let appLevel = run?.appLevelPhase ?? .inactive
        var running: [String] = []  // activities left running in the background by this event
        var runningSince: [UInt64] = []
        var crossed: [(id: WindowID, intoBackground: Bool)] = []
        for index in windows.indices {
            let instance = windows.values[index].instance
            guard let old = before.phase(ofInstance: instance) else { continue }  // opened by this event
            let new = windows.values[index].ownPhase ?? appLevel
            if old != .background && new == .background && byPhaseEvent {
                crossed.append((windows.keys[index], true))
            } else if old == .background && new != .background && windows.values[index].pendingBackground != nil {
                crossed.append((windows.keys[index], false))
            }
        }
        for (id, intoBackground) in crossed.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
            // `!`: the ids were just read from windows.
            let window = windows[id]!
            if intoBackground {
                let unsaved = Set(window.sceneKeys.filter { $0.value.isDirty }.map { window.sceneKeyRef($0.key) })
                if !unsaved.isEmpty { windows[id]?.pendingBackground = PendingSave(seq: seq, keys: unsaved) }
                if !window.activities.isEmpty {
                    let names = window.activities.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                    running.append("window \(id)'s \(names)")
                    runningSince += window.activities.values
                }
            } else if let pending = window.pendingBackground {
                windows[id]?.pendingBackground = nil
                recordMissedSave(pending)
            }
        }
        let newApp = appPhase
        if before.app != .background && newApp == .background {
            let unsaved = dirty.filter { $0.scope != .scene }
            if !unsaved.isEmpty { run?.pendingApp = PendingSave(seq: seq, keys: unsaved) }
            if let activities = run?.appActivities, !activities.isEmpty {
                let names = activities.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                running.append("the app-wide \(names)")
                runningSince += activities.values
            }
        } else if before.app == .background && newApp != .background, let pending = run?.pendingApp {
            run?.pendingApp = nil
            recordMissedSave(pending)
        }
        if !running.isEmpty {
            report(.activityInBackground, at: seq, related: runningSince,
                   "Went to the background with \(running.joined(separator: " and ")) still running. Stop timers, animations and sessions when the scene phase leaves .active (onChange(of: scenePhase)) and restart them when it returns, or declare the background mode they need.")
        }
        if newApp == .active && run?.everActive == false {
            run?.everActive = true
            // `!`: checked at the top.
            let (launchSeq, launchT, background) = (run!.launchSeq, run!.launchT, run!.isBackgroundLaunch)
            if !background, t - launchT > configuration.slowLaunchLimit {
                report(.slowLaunch, at: seq, related: [launchSeq],
                       "The app first became active \(JSONWriter.number(t - launchT)) ms after its launch at seq \(launchSeq); the launch watchdog kills apps that take about \(JSONWriter.number(configuration.slowLaunchLimit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
            }
        }
    }
}
