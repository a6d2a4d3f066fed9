/// Runs: launch, terminate, how runs end, and background saves decided at the end.
extension LifecycleModel {
    mutating func applyLaunch(seq: UInt64, t: Double, _ launch: ReplayLaunch, _ rules: inout RuleSet) {
        if isRunning {
            let updated = (launch.build != nil && launch.build != run.build) || (launch.os != nil && launch.os != run.os)
            endRun(at: seq, nextLaunch: RunEnd.NextLaunch(seq: seq, t: t, updated: updated), &rules)
        }
        runCount += 1
        // What was saved outlives the run; nothing else does.
        for i in sharedKeys.indices {
            let state = sharedKeys[i].state
            sharedKeys[i].state = KeyState(saved: state.saved, writers: state.savedWriters)
            sharedVersions[i] = state.saved
        }
        removeAllWindows()
        dirtyCount = 0
        // The new run reuses the last one's table storage, emptied.
        run.relaunch(number: runCount, launchSeq: seq, launchT: t, launch: launch, appWriter: takeInstance(),
                     seen: SeenVersions(atStart: sharedVersions, startSeq: seq))
        rules.observe(.runStarted(launch), &self)
    }

    mutating func applyTerminate(seq: UInt64, _ rules: inout RuleSet) {
        run.terminateSeq = seq
        endRun(at: seq, nextLaunch: nil, &rules)
    }

    /// Ends the current run at `seq`: by `terminate` (`nextLaunch` nil) or by
    /// the next `launch` (the process was killed).
    mutating func endRun(at seq: UInt64, nextLaunch: RunEnd.NextLaunch?, _ rules: inout RuleSet) {
        guard hasRun else { return }
        resolvePendingSaves(&rules)
        rules.observe(.runEnded(RunEnd(seq: seq, nextLaunch: nextLaunch, appPhase: appPhase)), &self)
        removeAllWindows()
        dirtyCount = 0
    }

    /// Decides every pending background save: what is still unsaved missed its save.
    mutating func resolvePendingSaves(_ rules: inout RuleSet) {
        if let pending = run.pendingApp {
            run.pendingApp = nil
            missedSave(pending, &rules)
        }
        var pendingWindows: [(id: String, index: Int)] = []
        for i in openWindows.indices where openWindows[i].pendingBackground != nil { pendingWindows.append((names[openWindows[i].id], i)) }
        pendingWindows.sort { $0.id < $1.id }
        for (_, index) in pendingWindows {
            if let pending = openWindows[index].pendingBackground {
                openWindows[index].pendingBackground = nil
                missedSave(pending, &rules)
            }
        }
    }

    mutating func missedSave(_ pending: PendingSave, _ rules: inout RuleSet) {
        guard !pending.keys.isEmpty else { return }
        run.missedInBackground.formUnion(pending.keys)
        rules.observe(.backgroundSaveMissed(pending), &self)
    }
}
