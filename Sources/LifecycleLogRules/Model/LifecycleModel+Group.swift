/// `group` keys (trace format 2) in one process's model: one value across every process, kept by
/// the reducer (``GroupKeys``). A process's model keeps an entry for each group key it touched,
/// dirty exactly while the key is dirty and its last write was made by a writer of this run
/// (trace-format.md, section 6 and Readings 14): what this run holds, loses and must save.

/// What a `save` event asked of `group` keys (``LifecycleModel/groupSave``).
package enum GroupSaveRequest {
    /// An instantaneous save (or an `end` that pairs with nothing), of the keys named or all.
    case save(names: [Name]?)
    /// A save `begin`: the reducer records the dirty group keys it covers in the open save.
    case begin(names: [Name]?)
    /// A paired `end`: the group keys its begin covered, saved at their versions then.
    case end([(name: Name, version: UInt64)])
}

/// What one process did to a `group` key, as another process's model learns it.
package enum GroupEffect {
    /// Another process wrote the key, to this version, at this seq: this run no longer holds it.
    case written(Name, version: UInt64, seq: UInt64)
    /// A save covered the key at this version.
    case saved(Name, version: UInt64)

    /// What applying `effects` in order does, in fewer: for each key its last write, then its last
    /// save if one came after it (a write by another process sets the saved version outright, and
    /// saved versions only grow). Keeps a process's kept-aside effects within twice its keys.
    static func coalesced(_ effects: [GroupEffect]) -> [GroupEffect] {
        var written = Set<Name>(), saved = Set<Name>()
        var kept: [GroupEffect] = []
        for effect in effects.reversed() {
            switch effect {
            case .written(let name, _, _):
                if written.insert(name).inserted { kept.append(effect) }
            case .saved(let name, _):
                if !written.contains(name), saved.insert(name).inserted { kept.append(effect) }
            }
        }
        return kept.reversed()
    }
}

extension LifecycleModel {
    /// Applies what another process did to a `group` key.
    mutating func apply(_ effect: GroupEffect) {
        switch effect {
        case .written(let name, let version, let seq): groupKeyWritten(name, byThisProcess: false, version: version, saved: 0, seq: seq)
        case .saved(let name, let version): groupKeySaved(name, at: version)
        }
    }

    /// Group key `name` was written, to `version` (its saved version now `saved`): by this
    /// process's current run, which then holds it, or by another process, which takes it away.
    mutating func groupKeyWritten(_ name: Name, byThisProcess: Bool, version: UInt64, saved: UInt64, seq: UInt64) {
        guard let index = sharedIndex(name, .group) else { return }
        noteChanged(index)
        sharedKeys[index].state.lastWrite = seq
        let wasDirty = sharedKeys[index].state.isDirty
        sharedKeys[index].state.version = version
        sharedKeys[index].state.saved = byThisProcess ? min(saved, version) : version
        sharedVersions.set(index, version, at: seq)
        let isDirty = sharedKeys[index].state.isDirty
        if wasDirty != isDirty { dirtyCount += isDirty ? 1 : -1 }
        if isDirty, !wasDirty { noteDirtyShared(index) }
    }

    /// A save covered group key `name` at `version`: saved in this process's view, and taken off
    /// the app's background save waiting to be decided (rules.md, Readings 18).
    mutating func groupKeySaved(_ name: Name, at version: UInt64) {
        guard let index = sharedIndex(name, .group) else { return }
        noteChanged(index)
        let ref = sharedKeys[index].ref
        run.pendingApp?.takeOff(ref, savedAt: version)
        guard version > sharedKeys[index].state.saved, sharedKeys[index].state.isDirty else { return }
        sharedKeys[index].state.saved = min(version, sharedKeys[index].state.version)
        if !sharedKeys[index].state.isDirty { dirtyCount -= 1 }
    }

    /// The names of the `group` keys this process touched.
    var groupKeyNames: LazyMapSequence<[Int], Name> { groupKeyPositions.lazy.map { sharedKeys[$0].ref.name } }

    /// Applies what other processes did to group keys while they were kept aside
    /// (``deferredGroupEffects``), in order, and forgets them.
    mutating func applyDeferredGroupEffects() {
        var effects: [GroupEffect] = []
        swap(&effects, &deferredGroupEffects)
        for effect in effects { apply(effect) }
    }

    /// Whether this process's run reached its willTerminate and waits for its end: its state is
    /// judged as it was after its last event (trace-format.md, Readings 9).
    var awaitsEndAfterWillTerminate: Bool { isRunning && run.willTerminateSeq != nil }
}
