/// Windows: `open` and `dismiss`, and scene storage restored from an earlier window.
extension LifecycleModel {
    mutating func applyOpen(seq: UInt64, t: Double, window id: Name, scene: Name, value: JSONValue?, restored: Bool,
                                                   _ rules: inout RuleSet) {
        guard hasRun else { return }
        if let existing = windowIndex(id) {
            rules.observe(.windowIdReused(window: id, existing: existing), &self)
            return
        }
        let canonical = value?.canonicalJSON
        let appBefore = appPhase
        var number: UInt32?
        if let canonical { number = valueNumber(canonical) }
        let identity = RestorationIdentity(scene: scene, valueNumber: number, window: id)
        let slot = restorationSlot(identity)
        let index = addWindow(instance: takeInstance(), id: id, scene: scene, canonicalValue: canonical, restored: restored,
                              openSeq: seq, restorationSlot: slot)
        if restored {
            let saved = restorations[slot]
            openWindows[index].restoredFrom = saved
            openWindows[index].sceneKeys = saved.mapValues { KeyState(saved: $0) }
        } else if !restorations[slot].isEmpty {
            restorations[slot] = NameMap()  // a fresh window: nothing to inherit from it until it saves
        }
        rules.observe(.windowOpened(index: index, declaration: run.scenes[scene]), &self)
        phasesChanged(seq: seq, t: t, appBefore: appBefore, &rules)
    }

    /// The number of a canonical window value, made when new.
    private mutating func valueNumber(_ canonical: String) -> UInt32 {
        if let number = valueNumbers[canonical] { return number }
        let number = UInt32(valueNumbers.count)
        valueNumbers[canonical] = number
        return number
    }

    /// The slot in ``restorations`` of `identity`, made when new.
    private mutating func restorationSlot(_ identity: RestorationIdentity) -> Int {
        if let slot = restorationSlots[identity] { return slot }
        restorationSlots[identity] = restorations.count
        restorations.append(NameMap())
        return restorations.count - 1
    }

    mutating func applyDismiss(seq: UInt64, t: Double, index: Int, _ rules: inout RuleSet) {
        let appBefore = appPhase
        rules.observe(.windowDismissed(index: index), &self)
        if let pending = openWindows[index].pendingBackground {
            openWindows[index].pendingBackground = nil
            missedSave(pending, &rules)
        }
        if dirtyCount > 0 {
            for value in openWindows[index].sceneKeys.values where value.isDirty { dirtyCount -= 1 }
            // The last window of a document takes its unsaved changes along: back to the saved versions.
            for key in documentKeysLeft(byDismissing: index) where sharedKeys[key].state.isDirty {
                sharedKeys[key].state.version = sharedKeys[key].state.saved
                sharedKeys[key].state.writers = sharedKeys[key].state.savedWriters
                sharedVersions[key] = sharedKeys[key].state.saved
                dirtyCount -= 1
            }
        }
        removeWindow(at: index)
        phasesChanged(seq: seq, t: t, appBefore: appBefore, &rules)
    }
}
