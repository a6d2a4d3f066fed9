/// `group` keys across processes (trace format 2): one value for every process, so a write in one
/// process takes the key from the others' runs, and a `save` of any process covers every dirty
/// group key, whoever wrote it (trace-format.md, section 6 and Readings 14). ``GroupKeys`` keeps the
/// versions; each process's model keeps what its run holds (``LifecycleModel/groupKeyWritten``).
extension LifecycleReducer {
    /// After the current process's model applied `event`, in a trace with `group` keys: a write's
    /// new version and a save's saved versions reach every process.
    @inline(never)
    mutating func afterGroupEvent(seq: UInt64, _ event: ReplayEvent) {
        if !model.isRunning { groupKeys.ended(process: currentProcess) }  // its writers write no more
        if event.kind == .write, event.scope == .group,
           event.window == ReplayEvent.noWindow || model.windowIndex(event.window) != nil,
           let key = groupKeys.keys[event.name] {
            model.groupKeyWritten(event.name, byThisProcess: true, version: key.version, saved: key.saved, seq: seq)
        }
        guard let request = model.groupSave else { return }
        model.groupSave = nil
        switch request {
        case .save(let names):
            for (name, _) in groupKeys.dirtyKeys({ names?.contains($0) ?? true }) { saveGroupKey(name, at: nil) }
        case .begin(let names):
            // `model.run.openSaves` has the begin just applied as its last element.
            model.run.openSaves[model.run.openSaves.count - 1].group = groupKeys.dirtyKeys { names?.contains($0) ?? true }
        case .end(let saved):
            for (name, version) in saved { saveGroupKey(name, at: version) }
        }
    }

    /// Saves group key `name` at `version` (`nil`: its current one) in every process.
    private mutating func saveGroupKey(_ name: Name, at version: UInt64?) {
        guard let saved = groupKeys.save(name, at: version) else { return }
        model.groupKeySaved(name, at: saved)
    }

    /// What another process did to group keys reaches a set-aside process when it is next taken
    /// up, not at the write or save: these then cost the same whatever the number of processes
    /// (issue 28: applying each to every set-aside process at once made replay time grow with the
    /// square of the processes).
    ///
    /// Brings a set-aside process's model up to date, in place (a copy would copy its tables at
    /// the first change) with what other processes did to the group
    /// keys it holds since it was set aside (at ``ParkedProcess/groupEpoch``): for each such key,
    /// its last write by another process, then its last save. That is what applying every effect
    /// in order leaves: a write by another process sets the key's version and takes it from this
    /// run whatever came before, and saved versions only grow (a later save takes off whatever an
    /// earlier one took off an undecided background save). A process waiting for its end after a
    /// willTerminate keeps them for its next event, as before (its end is judged without them), and
    /// so does a running process taken up for a `launch` (`deferring`): that launch ends its run
    /// unrecorded, judged by the state after its last event (rules.md, Readings 11), and the effects
    /// apply after the judgement, to what the next run starts from.
    func catchUp(_ parkedProcess: inout ParkedProcess, deferring: Bool = false) {
        guard parkedProcess.groupEpoch != groupKeys.epoch else { return }
        let since = parkedProcess.groupEpoch
        parkedProcess.groupEpoch = groupKeys.epoch
        var effects: [GroupEffect] = []
        // The keys changed since, when fewer than the keys it holds (a process set aside for a
        // moment, as an app and its widget take turns); else every key it holds. Either way each
        // catch-up costs the fewer of the two, not every key of the trace.
        let held = parkedProcess.model.groupKeyPositions.count
        let names = groupKeys.changed(since: since, limit: held) ?? Array(parkedProcess.model.groupKeyNames)
        for name in names {
            guard let key = groupKeys.keys[name] else { continue }
            if key.writeEpoch > since, let latest = key.latest { effects.append(.written(name, version: latest.version, seq: latest.seq)) }
            if key.saveEpoch > since { effects.append(.saved(name, version: key.saved)) }
        }
        if parkedProcess.model.awaitsEndAfterWillTerminate || (deferring && parkedProcess.model.isRunning) {
            parkedProcess.model.deferredGroupEffects += effects
            if parkedProcess.model.deferredGroupEffects.count > 2 * held + 16 {
                parkedProcess.model.deferredGroupEffects = GroupEffect.coalesced(parkedProcess.model.deferredGroupEffects)
            }
        } else {
            for effect in effects { parkedProcess.model.apply(effect) }
        }
    }

    /// `parkedProcess`, caught up (``catchUp(_:)``), for a read that keeps the set-aside original.
    func caughtUp(_ parkedProcess: ParkedProcess) -> ParkedProcess {
        var copy = parkedProcess
        catchUp(&copy)
        return copy
    }

    /// What other processes did to group keys while the current process waited for its end after
    /// a willTerminate: applied before its next event of the run; dropped at the end of the trace,
    /// where the run is judged by the state after its last event (at a `launch` the model applies
    /// them once it has judged the run: ``LifecycleModel/applyLaunch(seq:t:_:_:)``).
    mutating func takeDeferredGroupEffects(runJudged: Bool) {
        if runJudged { model.deferredGroupEffects.removeAll() } else { model.applyDeferredGroupEffects() }
    }

    /// The first `group` key of the trace (its first read or write): every process's model from now
    /// on leaves a `save`'s request for group keys to ``afterGroupEvent(seq:_:)``, which from now on
    /// follows every event (``GroupKeys/isEmpty`` is false).
    mutating func startTrackingGroupKeys() {
        model.tracksGroupKeys = true
        for process in parked.keys { parked[process]!.model.tracksGroupKeys = true }  // `!`: a key of `parked`
    }
}
