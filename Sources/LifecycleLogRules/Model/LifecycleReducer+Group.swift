/// `group` keys across processes (trace format 2): one value for every process, so a write in one
/// process takes the key from the others' runs, and a `save` of any process covers every dirty
/// group key, whoever wrote it (trace-format.md, section 6 and Readings 14). ``GroupKeys`` keeps the
/// versions; each process's model keeps what its run holds (``LifecycleModel/groupKeyWritten``).
extension LifecycleReducer {
    /// After the current process's model applied `event`, in a trace with `group` keys: a write's
    /// new version and a save's saved versions reach every process.
    @inline(never)
    mutating func afterGroupEvent(seq: UInt64, _ event: ReplayEvent) {
        if event.kind == .write, event.scope == .group,
           event.window == ReplayEvent.noWindow || model.windowIndex(event.window) != nil,
           let key = groupKeys.keys[event.name] {
            model.groupKeyWritten(event.name, byThisProcess: true, version: key.version, saved: key.saved, seq: seq)
            forEachOtherProcess(.written(event.name, version: key.version, seq: seq))
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
        forEachOtherProcess(.saved(name, version: saved))
    }

    /// Applies `effect` to every set-aside process, in a fixed order; a process waiting for its
    /// end after a willTerminate keeps it for its next event (its end is judged without it).
    private mutating func forEachOtherProcess(_ effect: GroupEffect) {
        for process in parked.keys.sorted() {
            if parked[process]!.model.awaitsEndAfterWillTerminate {  // `!`: a key of `parked`
                parked[process]!.model.deferredGroupEffects.append(effect)
            } else {
                parked[process]!.model.apply(effect)
            }
        }
    }

    /// What other processes did to group keys while the current process waited for its end after
    /// a willTerminate: applied before its next event of the run, dropped when the run is judged
    /// (a `launch`, or the end of the trace), whose state is the one after its last event.
    mutating func takeDeferredGroupEffects(runJudged: Bool) {
        var effects: [GroupEffect] = []
        swap(&effects, &model.deferredGroupEffects)
        guard !runJudged else { return }
        for effect in effects { model.apply(effect) }
    }

    /// The first `group` key of the trace (its first read or write): every process's model from now
    /// on leaves a `save`'s request for group keys to ``afterGroupEvent(seq:_:)``, which from now on
    /// follows every event (``GroupKeys/isEmpty`` is false).
    mutating func startTrackingGroupKeys() {
        model.tracksGroupKeys = true
        for process in parked.keys { parked[process]!.model.tracksGroupKeys = true }  // `!`: a key of `parked`
    }
}
