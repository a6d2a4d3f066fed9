/// Scene phases: each window's (its own, or the app-level one it follows),
/// the aggregate app phase, and what changing them sets off.
extension LifecycleReducer {
    /// The phase of `window`: its own, or the app-level phase while it has had none.
    @inline(__always)
    func phase(of window: OpenWindow) -> ScenePhase {
        window.ownPhase ?? (hasRun ? run.appLevelPhase : .inactive)
    }

    /// The aggregate app phase (Apple's `ScenePhase` rule): `active` if any
    /// window is, else `inactive` if any is, else `background`; with no
    /// window open, the app-level phase.
    // Always inlined, like every small reader the hot path calls: a call would
    // pass a copy of the whole reducer as `self`.
    @inline(__always)
    var appPhase: ScenePhase {
        let appLevel = hasRun ? run.appLevelPhase : .background
        guard !openWindows.isEmpty else { return appLevel }
        // From the counts of windows per own phase, kept by setOwnPhase(_:of:).
        let followers = openWindows.count - ownPhaseCounts.active - ownPhaseCounts.inactive - ownPhaseCounts.background
        if ownPhaseCounts.active > 0 || (followers > 0 && appLevel == .active) { return .active }
        if ownPhaseCounts.inactive > 0 || (followers > 0 && appLevel == .inactive) { return .inactive }
        return .background
    }

    /// Sets a window's own phase, keeping ``ownPhaseCounts``.
    mutating func setOwnPhase(_ phase: ScenePhase?, of index: Int) {
        ownPhaseCounts.add(openWindows[index].ownPhase, -1)
        openWindows[index].ownPhase = phase
        ownPhaseCounts.add(phase, 1)
    }

    /// Whether window `index`, whose phase changed from `from` to `to`, crosses
    /// into the background (`true`), out of it with a background save pending
    /// (`false`), or neither (`nil`): what ``phasesChanged(seq:t:appBefore:crossed:)`` acts on.
    @inline(__always)
    private func crossing(_ index: Int, from: ScenePhase, to: ScenePhase) -> Bool? {
        if from != .background && to == .background { return true }
        if from == .background && to != .background && openWindows[index].pendingBackground != nil { return false }
        return nil
    }

    /// The reducer's reusable list of crossings, moved out (so it can be filled while the reducer changes).
    private mutating func takeCrossingScratch() -> [(id: Name, intoBackground: Bool)] {
        var list: [(id: Name, intoBackground: Bool)] = []
        swap(&list, &crossingScratch)
        return list
    }

    /// Gives the list back, emptied, keeping its storage for the next crossing.
    private mutating func returnCrossingScratch(_ list: inout [(id: Name, intoBackground: Bool)]) {
        list.removeAll(keepingCapacity: true)
        swap(&list, &crossingScratch)
    }

    mutating func applyPhase(seq: UInt64, t: Double, _ newPhase: ScenePhase, window index: Int?) {
        guard hasRun else { return }
        let appLevelBefore = run.appLevelPhase
        let appBefore = appPhase
        // Only the phases this event changes can cross: one window's own, or
        // the app-level phase of every window without one of its own. Most
        // events cross nothing, and then no list is built.
        if let index {
            let from = openWindows[index].ownPhase ?? appLevelBefore
            if Self.skipsInactive(from, newPhase) { reportPhaseSkip(seq: seq, from: from, to: newPhase, subject: "window \(names[openWindows[index].id])") }
            setOwnPhase(newPhase, of: index)
            if let into = crossing(index, from: from, to: newPhase) {
                var crossed = takeCrossingScratch()
                crossed.append((openWindows[index].id, into))
                phasesChanged(seq: seq, t: t, appBefore: appBefore, crossed: crossed)
                returnCrossingScratch(&crossed)
                return
            }
        } else {
            if Self.skipsInactive(appLevelBefore, newPhase) { reportPhaseSkip(seq: seq, from: appLevelBefore, to: newPhase, subject: "the app-level phase") }
            checkAppPhaseAgreement(seq: seq, newPhase)
            run.appLevelPhase = newPhase
            run.lastAppLevelPhaseSeq = seq
            if appLevelBefore != newPhase, openWindows.indices.contains(where: {
                openWindows[$0].ownPhase == nil && crossing($0, from: appLevelBefore, to: newPhase) != nil
            }) {
                var crossed = takeCrossingScratch()
                for i in openWindows.indices where openWindows[i].ownPhase == nil {
                    if let into = crossing(i, from: appLevelBefore, to: newPhase) { crossed.append((openWindows[i].id, into)) }
                }
                phasesChanged(seq: seq, t: t, appBefore: appBefore, crossed: crossed)
                returnCrossingScratch(&crossed)
                return
            }
        }
        phasesChanged(seq: seq, t: t, appBefore: appBefore)
    }

    /// Whether going from `from` to `to` skips `inactive` (which UIKit never does; AppKit may).
    @inline(__always)
    static func skipsInactive(_ from: ScenePhase, _ to: ScenePhase) -> Bool {
        (from == .background && to == .active) || (from == .active && to == .background)
    }

    private mutating func reportPhaseSkip(seq: UInt64, from: ScenePhase, to: ScenePhase, subject: String) {
        let platform = run.platform
        guard hasRun, platform != .macOS else { return }
        report(.phaseSkip, at: seq, related: [],
               "On \(platform.rawValue), \(subject) went straight from \(from.rawValue) to \(to.rawValue) without inactive between; UIKit's scene life cycle always passes through foreground-inactive. If the recorder missed the inactive change, observe scenePhase in every window's root view; if the trace is hand-written, add the inactive step.")
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

    /// Applies what an event's phase changes set off: background saves
    /// pending or decided for the windows that `crossed` into or out of the
    /// background, the same for the app, activities left running in the
    /// background, and the first time the app became active.
    @inline(__always)
    mutating func phasesChanged(seq: UInt64, t: Double, appBefore: ScenePhase) {
        guard hasRun else { return }
        // Most events change nothing that matters here: no window crossed, the
        // app phase stayed, and the app has been active before.
        let newApp = appPhase
        if newApp == appBefore && (newApp != .active || run.everActive) { return }
        phasesCrossed(seq: seq, t: t, appBefore: appBefore, newApp: newApp, crossed: [])
    }

    /// ``phasesChanged(seq:t:appBefore:)`` when windows `crossed` into or out of the background.
    mutating func phasesChanged(seq: UInt64, t: Double, appBefore: ScenePhase, crossed: [(id: Name, intoBackground: Bool)]) {
        guard hasRun else { return }
        phasesCrossed(seq: seq, t: t, appBefore: appBefore, newApp: appPhase, crossed: crossed)
    }

    private mutating func phasesCrossed(seq: UInt64, t: Double, appBefore: ScenePhase, newApp: ScenePhase, crossed: [(id: Name, intoBackground: Bool)]) {
        var running: [String] = []  // activities left running in the background by this event
        var runningSince: [UInt64] = []
        if !crossed.isEmpty {
            var ordered = crossed
            if ordered.count > 1 {
                let names = self.names  // the closure captures the names, not the whole reducer
                ordered.sort { names.precedes($0.id, $1.id) }
            }
            for (id, intoBackground) in ordered {
                // `!`: the ids were just read from openWindows.
                let index = windowIndex(id)!
                if intoBackground {
                    let unsaved = dirtySceneKeys(of: index)
                    if !unsaved.isEmpty { openWindows[index].pendingBackground = PendingSave(seq: seq, keys: Set(unsaved)) }
                    if !openWindows[index].activities.isEmpty {
                        running.append("window \(names[id])'s \(quotedList(openWindows[index].activities.keys))")
                        runningSince += openWindows[index].activities.values
                    }
                } else if let pending = openWindows[index].pendingBackground {
                    openWindows[index].pendingBackground = nil
                    recordMissedSave(pending)
                }
            }
        }
        if appBefore != .background && newApp == .background {
            let unsaved = dirtySharedKeys()
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
