/// Runs: launch, terminate, how runs end, and background saves decided at the end.
extension LifecycleModel {
    mutating func applyLaunch<O: TransitionObserver>(seq: UInt64, t: Double, _ launch: ReplayLaunch, _ observer: inout O) {
        if isRunning {
            let updated = (launch.build != nil && launch.build != run.build) || (launch.os != nil && launch.os != run.os)
            endRun(at: seq, nextLaunch: RunEnd.NextLaunch(seq: seq, t: t, updated: updated), &observer)
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
        observer.observe(.runStarted(launch), self)
    }

    mutating func applyTerminate<O: TransitionObserver>(seq: UInt64, _ observer: inout O) {
        run.terminateSeq = seq
        endRun(at: seq, nextLaunch: nil, &observer)
    }

    /// Ends the current run at `seq`: by `terminate` (`nextLaunch` nil) or by
    /// the next `launch` (the process was killed).
    mutating func endRun<O: TransitionObserver>(at seq: UInt64, nextLaunch: RunEnd.NextLaunch?, _ observer: inout O) {
        guard hasRun else { return }
        resolvePendingSaves(&observer)
        observer.observe(.runEnded(RunEnd(seq: seq, nextLaunch: nextLaunch, appPhase: appPhase)), self)
        removeAllWindows()
        dirtyCount = 0
    }

    /// Decides every pending background save: what is still unsaved missed its save.
    mutating func resolvePendingSaves<O: TransitionObserver>(_ observer: inout O) {
        if let pending = run.pendingApp {
            run.pendingApp = nil
            missedSave(pending, &observer)
        }
        var pendingWindows: [(id: String, index: Int)] = []
        for i in openWindows.indices where openWindows[i].pendingBackground != nil { pendingWindows.append((names[openWindows[i].id], i)) }
        pendingWindows.sort { $0.id < $1.id }
        for (_, index) in pendingWindows {
            if let pending = openWindows[index].pendingBackground {
                openWindows[index].pendingBackground = nil
                missedSave(pending, &observer)
            }
        }
    }

    mutating func missedSave<O: TransitionObserver>(_ pending: PendingSave, _ observer: inout O) {
        guard !pending.keys.isEmpty else { return }
        run.missedInBackground.formUnion(pending.keys)
        observer.observe(.backgroundSaveMissed(pending), self)
    }
}
