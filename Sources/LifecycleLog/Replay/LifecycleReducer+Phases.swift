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
        guard !windows.isEmpty else { return run?.appLevelPhase ?? .background }
        var sawInactive = false
        for window in windows.values {
            switch phase(of: window) {
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
        var windows: [WindowID: (instance: Int, phase: ScenePhase)]
    }

    func phaseSnapshot() -> PhaseSnapshot {
        var phases: [WindowID: (instance: Int, phase: ScenePhase)] = [:]
        for (id, window) in windows { phases[id] = (window.instance, phase(of: window)) }
        return PhaseSnapshot(app: appPhase, windows: phases)
    }

    mutating func applyPhase(seq: UInt64, t: Double, _ newPhase: ScenePhase, window: WindowID?) {
        guard let current = run else { return }
        let before = phaseSnapshot()
        if let window, let open = windows[window] {
            let from = phase(of: open)
            checkPhaseSkip(seq: seq, from: from, to: newPhase, subject: "window \(window)")
            windows[window]?.ownPhase = newPhase
        } else {
            checkPhaseSkip(seq: seq, from: current.appLevelPhase, to: newPhase, subject: "the app-level phase")
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
        guard let current = run else { return }
        var running: [String] = []  // activities left running in the background by this event
        var runningSince: [UInt64] = []
        for id in windows.keys.sorted() {
            // `!`: id comes from windows.keys.
            let window = windows[id]!
            guard let old = before.windows[id], old.instance == window.instance else { continue }  // opened by this event
            let new = phase(of: window)
            if old.phase != .background && new == .background && byPhaseEvent {
                let unsaved = Set(window.sceneKeys.filter { $0.value.isDirty }.map { window.sceneKeyRef($0.key) })
                if !unsaved.isEmpty { windows[id]?.pendingBackground = PendingSave(seq: seq, keys: unsaved) }
                if !window.activities.isEmpty {
                    let names = window.activities.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                    running.append("window \(id)'s \(names)")
                    runningSince += window.activities.values
                }
            } else if old.phase == .background && new != .background, let pending = window.pendingBackground {
                windows[id]?.pendingBackground = nil
                recordMissedSave(pending)
            }
        }
        let newApp = appPhase
        if before.app != .background && newApp == .background {
            let unsaved = dirty.filter { $0.scope != .scene }
            if !unsaved.isEmpty { run?.pendingApp = PendingSave(seq: seq, keys: unsaved) }
            if !current.appActivities.isEmpty {
                let names = current.appActivities.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                running.append("the app-wide \(names)")
                runningSince += current.appActivities.values
            }
        } else if before.app == .background && newApp != .background, let pending = current.pendingApp {
            run?.pendingApp = nil
            recordMissedSave(pending)
        }
        if !running.isEmpty {
            report(.activityInBackground, at: seq, related: runningSince,
                   "Went to the background with \(running.joined(separator: " and ")) still running. Stop timers, animations and sessions when the scene phase leaves .active (onChange(of: scenePhase)) and restart them when it returns, or declare the background mode they need.")
        }
        if newApp == .active && !current.everActive {
            run?.everActive = true
            if !current.isBackgroundLaunch, t - current.launchT > configuration.slowLaunchLimit {
                report(.slowLaunch, at: seq, related: [current.launchSeq],
                       "The app first became active \(JSONWriter.number(t - current.launchT)) ms after its launch at seq \(current.launchSeq); the launch watchdog kills apps that take about \(JSONWriter.number(configuration.slowLaunchLimit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
            }
        }
    }
}
