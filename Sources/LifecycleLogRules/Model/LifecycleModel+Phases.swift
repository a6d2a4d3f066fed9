/// Scene phases: each window's (its own, or the app-level one it follows),
/// the aggregate app phase, and what changing them sets off.
extension LifecycleModel {
    /// The phase of `window`: its own, or the app-level phase while it has had none.
    @inline(__always)
    func phase(of window: OpenWindow) -> LifecyclePhase {
        window.ownPhase ?? (hasRun ? run.appLevelPhase : .inactive)
    }

    /// The aggregate app phase (Apple's `LifecyclePhase` rule): `active` if any
    /// window is, else `inactive` if any is, else `background`; with no
    /// window open, the app-level phase.
    // Always inlined, like every small reader the hot path calls: a call would
    // pass a copy of the whole model as `self`.
    @inline(__always)
    var appPhase: LifecyclePhase {
        let appLevel = hasRun ? run.appLevelPhase : .background
        guard !openWindows.isEmpty else { return appLevel }
        // From the counts of windows per own phase, kept by setOwnPhase(_:of:).
        let followers = openWindows.count - ownPhaseCounts.active - ownPhaseCounts.inactive - ownPhaseCounts.background
        if ownPhaseCounts.active > 0 || (followers > 0 && appLevel == .active) { return .active }
        if ownPhaseCounts.inactive > 0 || (followers > 0 && appLevel == .inactive) { return .inactive }
        return .background
    }

    /// Sets a window's own phase, keeping ``ownPhaseCounts``. Inlined: about half the phase
    /// events of a trace set a window's phase, and the call cost as much as the work.
    @inline(__always)
    mutating func setOwnPhase(_ phase: LifecyclePhase?, of index: Int) {
        ownPhaseCounts.add(openWindows[index].ownPhase, -1)
        openWindows[index].ownPhase = phase
        ownPhaseCounts.add(phase, 1)
    }

    /// Whether window `index`, whose phase changed from `from` to `to`, crosses
    /// into the background (`true`), out of it with a background save pending
    /// (`false`), or neither (`nil`): what ``phasesChanged(seq:t:appBefore:crossed:)`` acts on.
    @inline(__always)
    private func crossing(_ index: Int, from: LifecyclePhase, to: LifecyclePhase) -> Bool? {
        if from != .background && to == .background { return true }
        if from == .background && to != .background && openWindows[index].pendingBackground != nil { return false }
        return nil
    }

    /// The reducer's reusable list of crossings, moved out (so it can be filled while the model changes).
    private mutating func takeCrossingScratch() -> [(id: Name, intoBackground: Bool)] {
        var list: [(id: Name, intoBackground: Bool)] = []
        swap(&list, &crossingScratch)
        return list
    }

    /// Gives the list back, emptied, keeping its storage for the next crossing.
    private mutating func returnCrossingScratch(_ list: inout [(id: Name, intoBackground: Bool)]) {
        list.removeAllKeepingStorage()
        swap(&list, &crossingScratch)
    }

    mutating func applyPhase(seq: UInt64, t: Double, _ newPhase: LifecyclePhase, window index: Int?, _ rules: inout RuleSet) {
        guard hasRun else { return }
        let appLevelBefore = run.appLevelPhase
        let appBefore = appPhase
        // Only the phases this event changes can cross: one window's own, or
        // the app-level phase of every window without one of its own. Most
        // events cross nothing, and then no list is built.
        if let index {
            let from = openWindows[index].ownPhase ?? appLevelBefore
            setOwnPhase(newPhase, of: index)
            if rules.hearsWindowPhase(from: from, to: newPhase) { rules.observe(.phaseChanged(window: index, from: from, to: newPhase), &self) }
            if let into = crossing(index, from: from, to: newPhase) {
                var crossed = takeCrossingScratch()
                crossed.append((openWindows[index].id, into))
                phasesChanged(seq: seq, t: t, appBefore: appBefore, crossed: crossed, &rules)
                returnCrossingScratch(&crossed)
                return
            }
        } else {
            run.appLevelPhase = newPhase
            run.lastAppLevelPhaseSeq = seq
            rules.observe(.phaseChanged(window: nil, from: appLevelBefore, to: newPhase), &self)
            if appLevelBefore != newPhase, openWindows.indices.contains(where: {
                openWindows[$0].ownPhase == nil && crossing($0, from: appLevelBefore, to: newPhase) != nil
            }) {
                var crossed = takeCrossingScratch()
                for i in openWindows.indices where openWindows[i].ownPhase == nil {
                    if let into = crossing(i, from: appLevelBefore, to: newPhase) { crossed.append((openWindows[i].id, into)) }
                }
                // By id, in place: the list is this model's own scratch, so sorting it allocates nothing.
                if crossed.count > 1 { crossed.sort { names.precedes($0.id, $1.id) } }
                phasesChanged(seq: seq, t: t, appBefore: appBefore, crossed: crossed, &rules)
                returnCrossingScratch(&crossed)
                return
            }
        }
        phasesChanged(seq: seq, t: t, appBefore: appBefore, &rules)
    }

    /// Applies what an event's phase changes set off: background saves
    /// pending or decided for the windows that `crossed` into or out of the
    /// background, the same for the app, activities left running in the
    /// background, and the first time the app became active.
    @inline(__always)
    mutating func phasesChanged(seq: UInt64, t: Double, appBefore: LifecyclePhase, _ rules: inout RuleSet) {
        guard hasRun else { return }
        // Most events change nothing that matters here: no window crossed, the
        // app phase stayed, and the app has been active before.
        let newApp = appPhase
        if newApp == appBefore && (newApp != .active || run.everActive) { return }
        phasesCrossed(seq: seq, t: t, appBefore: appBefore, newApp: newApp, crossed: [], &rules)
    }

    /// ``phasesChanged(seq:t:appBefore:)`` when windows `crossed` into or out of the background
    /// (sorted by id).
    mutating func phasesChanged(seq: UInt64, t: Double, appBefore: LifecyclePhase, crossed: [(id: Name, intoBackground: Bool)],
                                                       _ rules: inout RuleSet) {
        guard hasRun else { return }
        phasesCrossed(seq: seq, t: t, appBefore: appBefore, newApp: appPhase, crossed: crossed, &rules)
    }

    /// The current version of each of `keys` (`app` and `shared` keys).
    private func sharedKeyVersions(_ keys: Set<KeyRef>) -> [KeyRef: UInt64] {
        var versions: [KeyRef: UInt64] = [:]
        for key in keys { if let i = sharedIndex(key.name, key.scope) { versions[key] = sharedKeys[i].state.version } }
        return versions
    }

    private mutating func phasesCrossed(seq: UInt64, t: Double, appBefore: LifecyclePhase, newApp: LifecyclePhase,
                                                               crossed: [(id: Name, intoBackground: Bool)], _ rules: inout RuleSet) {
        let ordered = crossed  // sorted by id where it was made (``applyPhase``)
        if !crossed.isEmpty {
            for (id, intoBackground) in ordered {
                // `!`: the ids were just read from openWindows.
                let index = windowIndex(id)!
                if intoBackground {
                    let unsaved = sortingDirtySceneKeys(of: index)
                    if !unsaved.isEmpty {
                        var versions: [KeyRef: UInt64] = [:]
                        for key in unsaved { versions[key] = openWindows[index].sceneKeys[key.name]?.version }
                        if let previous = openWindows[index].pendingBackground { pendingBackgroundSeqs.remove(previous.seq) }
                        openWindows[index].pendingBackground = PendingSave(seq: seq, keys: Set(unsaved), versions: versions)
                        pendingBackgroundSeqs.insert(seq)
                    }
                } else if let pending = openWindows[index].pendingBackground {
                    openWindows[index].pendingBackground = nil
                    pendingBackgroundSeqs.remove(pending.seq)
                    missedSave(pending, &rules)
                }
            }
        }
        let appEntered = appBefore != .background && newApp == .background
        if appEntered {
            let unsaved = dirtySharedKeys()
            if !unsaved.isEmpty { run.pendingApp = PendingSave(seq: seq, keys: unsaved, versions: sharedKeyVersions(unsaved)) }
        } else if appBefore == .background && newApp != .background, let pending = run.pendingApp {
            run.pendingApp = nil
            missedSave(pending, &rules)
        }
        if appEntered || ordered.contains(where: { $0.intoBackground }) {
            // The summaries `activity-in-background` reads, made where they were dropped.
            for (id, intoBackground) in ordered where intoBackground {
                if let w = windowIndex(id), openWindows[w].activitySummary == nil, !openWindows[w].activities.isEmpty {
                    openWindows[w].activitySummary = ActivitySummary(openWindows[w].activities, names: names)
                }
            }
            if appEntered, run.appActivitySummary == nil, !run.appActivities.isEmpty {
                run.appActivitySummary = ActivitySummary(run.appActivities, names: names)
            }
            rules.observe(.crossedBackground(crossed: ordered, appEntered: appEntered), &self)
        }
        let firstActive = newApp == .active && !run.everActive
        if firstActive { run.everActive = true }
        if firstActive || (newApp != appBefore && rules.hearsAppOnly) {
            rules.observe(.appPhaseChanged(from: appBefore, to: newApp, firstActive: firstActive), &self)
        }
    }
}
