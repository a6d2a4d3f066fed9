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
        // A window with a value is also the last window of its scene and id (Readings 2).
        let idSlot = number == nil ? slot : restorationSlot(RestorationIdentity(scene: scene, valueNumber: nil, window: id))
        openWindows[index].idSlot = idSlot
        if restored { materializeRestoration(slot) }  // before this window becomes the slot's last window
        restorationOwners[slot] = openWindows[index].instance
        restorationOwners[idSlot] = openWindows[index].instance
        if restored {
            let saved = restorations[slot]
            openWindows[index].restoredFrom = saved
            openWindows[index].sceneKeys = saved.mapValues { KeyState(saved: $0) }
            // What it took over is what it leaves, until it saves.
            restorationSaved(by: index)
        } else {
            forgetRestoration(slot)  // a fresh window: nothing to inherit from it until it saves
            if idSlot != slot { forgetRestoration(idSlot) }
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
        if let slot = restorationSlots[identity.bits] { return Int(slot) }
        restorationSlots.set(identity.bits, Int32(restorations.count))
        restorations.append(NameMap())
        restorationSources.append(nil)
        restorationOwners.append(0)
        return restorations.count - 1
    }

    /// The window at `index` saved: its restoration slot now holds that window's keys as they are,
    /// with their saved versions. Recorded, not copied: keys are only ever added to a window, and
    /// saved versions change only at saves, so the copy is made when it is needed (a restored
    /// window opens in the slot, or this window closes) instead of at every save.
    mutating func restorationSaved(by index: Int) {
        let instance = openWindows[index].instance
        let source = RestorationSource(instance: instance, id: openWindows[index].id, keyCount: openWindows[index].sceneKeys.count)
        // An earlier window that a later one of its identity followed no longer decides what is restored.
        if restorationOwners[openWindows[index].restorationSlot] == instance { restorationSources[openWindows[index].restorationSlot] = source }
        if restorationOwners[openWindows[index].idSlot] == instance { restorationSources[openWindows[index].idSlot] = source }
    }

    /// Empties restoration slot `slot` (a window opened there, not restored, and has not saved yet).
    private mutating func forgetRestoration(_ slot: Int) {
        restorations[slot].removeAll()  // keeping its storage for the window's next save
        restorationSources[slot] = nil
    }

    /// Copies what ``restorationSaved(by:)`` recorded for `slot` into ``restorations``.
    mutating func materializeRestoration(_ slot: Int) {
        guard let source = restorationSources[slot] else { return }
        restorationSources[slot] = nil
        // `!`: a source is dropped when its window closes (``removeWindow(at:)``), so it is open, under
        // its id (found by it: a scan of the open windows at each save made N open windows quadratic).
        let index = windowIndex(source.id)!
        assert(openWindows[index].instance == source.instance)
        restorations[slot].setSavedVersions(of: openWindows[index].sceneKeys, count: source.keyCount)
    }

    mutating func applyDismiss(seq: UInt64, t: Double, index: Int, _ rules: inout RuleSet) {
        let appBefore = appPhase
        rules.observe(.windowDismissed(index: index), &self)
        if let pending = openWindows[index].pendingBackground {
            openWindows[index].pendingBackground = nil
            pendingBackgroundSeqs.remove(pending.seq)
            missedSave(pending, &rules)
        }
        if dirtyCount > 0 {
            dirtyCount -= openWindows[index].dirtyScene.count
            // The last window of a document takes its unsaved changes along: back to the saved versions.
            for key in documentKeysLeft(byDismissing: index) where sharedKeys[key].state.isDirty {
                noteChanged(key)
                sharedKeys[key].state.version = sharedKeys[key].state.saved
                sharedKeys[key].state.writers = sharedKeys[key].state.savedWriters
                sharedVersions.set(key, sharedKeys[key].state.saved, at: seq)
                dirtyCount -= 1
            }
        }
        removeWindow(at: index)
        phasesChanged(seq: seq, t: t, appBefore: appBefore, &rules)
    }
}
