/// Runs: launch, terminate, kill, willTerminate, how runs end (rules.md, Readings 11), and
/// background saves decided at the end.
extension LifecycleModel {
    mutating func applyLaunch(seq: UInt64, t: Double, _ launch: ReplayLaunch, _ rules: inout RuleSet) {
        if isRunning {
            if let willTerminate = run.willTerminateSeq {
                // The process exited after its willTerminate without recording more: a clean end there.
                endRun(at: willTerminate, how: .willTerminate, &rules)
            } else {
                let updated = (launch.build != nil && launch.build != run.build) || (launch.os != nil && launch.os != run.os)
                let next = RunEnd.NextLaunch(seq: seq, t: t, updated: updated)
                endRun(at: seq, how: .unrecorded(next), &rules)
            }
        }
        // What other processes did to group keys since this process's last event: not part of the
        // state its ended run was judged by (rules.md, Readings 11), part of what the next starts from.
        if !deferredGroupEffects.isEmpty { applyDeferredGroupEffects() }
        runCount += 1
        // What was saved outlives the run; nothing else does. No writer of the last run is left to
        // ask what it saw.
        removeAllWindows()
        sharedVersions.allWritersEnded()
        // Only the keys changed in the run that ended: the others are as the last launch left them.
        for i in changedShared {
            let state = sharedKeys[i].state
            sharedKeys[i].state = KeyState(saved: state.saved, writers: state.savedWriters)
            sharedKeys[i].state.lastWrite = state.lastWrite
            sharedVersions.set(i, state.saved, at: seq)
        }
        changedShared.removeAllKeepingStorage()
        dirtyCount = 0
        dirtyShared.removeAllKeepingStorage()
        sharedVersions.writerStarted(at: seq)
        // The new run reuses the last one's table storage, emptied.
        run.relaunch(number: runCount, launchSeq: seq, launchT: t, launch: launch, appWriter: takeInstance(),
                     seen: SeenVersions(startSeq: seq))
        rules.observe(.runStarted(launch), &self)
    }

    // Rare (once a run): out of line, so that the per-event `applyInRun` stays small.
    @inline(never)
    mutating func applyTerminate(seq: UInt64, _ rules: inout RuleSet) {
        run.terminateSeq = seq
        endRun(at: seq, how: .terminated, &rules)
    }

    /// A `kill` in a run: the run ends here, not cleanly (even after a willTerminate: the kill decides).
    // Rare (once a run): out of line, so that the per-event `applyInRun` stays small.
    @inline(never)
    mutating func applyKill(seq: UInt64, t: Double, reason: Name, _ kill: ReplayKill?, _ rules: inout RuleSet) {
        run.terminateSeq = seq
        run.endedByKill = true
        run.killReason = reason
        let recorded = RunEnd.RecordedKill(reason: KillReason(names[reason]), name: reason, t: t, signal: kill?.signal,
                                           by: kill?.by ?? ReplayEvent.noName)
        endRun(at: seq, how: .killed(recorded), &rules)
    }

    /// A `delegate` `willTerminate`: the run will end cleanly here unless a `terminate` or `kill`
    /// follows before the next launch (trace-format.md, Readings 9). A second one changes nothing.
    @inline(__always)
    mutating func applyWillTerminate(seq: UInt64) {
        if run.willTerminateSeq == nil { run.willTerminateSeq = seq }
    }

    /// The end of the trace: a run whose willTerminate came is judged, ended there; any other run
    /// still going is not (only its background saves are decided).
    mutating func finishTrace(_ rules: inout RuleSet) {
        guard isRunning else { return }
        if let willTerminate = run.willTerminateSeq {
            endRun(at: willTerminate, how: .willTerminate, &rules)
        } else {
            resolvePendingSaves(&rules)
        }
    }

    /// Ends the current run at its end event `seq`, as `how` says.
    mutating func endRun(at seq: UInt64, how: RunEnd.How, _ rules: inout RuleSet) {
        guard hasRun else { return }
        resolvePendingSaves(&rules)
        rules.observe(.runEnded(RunEnd(seq: seq, how: how, appPhase: appPhase)), &self)
        removeAllWindows()
        run.openSaves.removeAllKeepingStorage()
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
                pendingBackgroundSeqs.remove(pending.seq)
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
