/// Asynchronous saves (trace format 2): a save `begin` records the versions of the keys it
/// covers; its `end` saves them at those versions (trace-format.md, section 5 and Readings 10).
extension LifecycleModel {
    @inline(never)
    mutating func applyStagedSave(seq: UInt64, _ stage: SaveStage, _ event: ReplayEvent, extras: [ReplayExtra], window: Int?,
                                  _ rules: inout RuleSet) {
        let extra = event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)]
        let (id, names, windowName, store) = (event.name, extra?.keys, event.window, extra?.store)
        switch stage {
        case .begin:
            beginSave(seq: seq, id: id, keys: names, window: window, windowName: windowName, store: store)
        case .end:
            if let begin = pairedBegin(id: id, windowName: windowName, store: store) {
                let open = run.openSaves.remove(at: begin)
                endSave(open, &rules)
            } else {
                // An end that pairs with nothing is an instantaneous save, with its own window and keys.
                applySave(keys: names, window: window, &rules)
            }
        }
    }

    /// The position in ``RunState/openSaves`` of the begin an `end` pairs with: the most recent
    /// open one with its `id`, or without `id`, the most recent one without `id` of the same
    /// `window` and `store`.
    private func pairedBegin(id: Name, windowName: Name, store: String?) -> Int? {
        if id != ReplayEvent.noName { return run.openSaves.lastIndex { $0.id == id } }
        return run.openSaves.lastIndex { $0.id == ReplayEvent.noName && $0.window == windowName && $0.store == store }
    }

    private mutating func beginSave(seq: UInt64, id: Name, keys names: [Name]?, window: Int?, windowName: Name, store: String?) {
        func covered(_ name: Name) -> Bool { names?.contains(name) ?? true }
        var open = OpenSave(seq: seq, id: id, window: windowName, store: store, shared: [], scene: [])
        if tracksGroupKeys { groupSave = .begin(names: names) }
        for i in sharedKeys.indices
        where sharedKeys[i].state.isDirty && sharedKeys[i].ref.scope != .group && saveCovers(sharedKeys[i].ref, names: names, window: window) {
            open.shared.append((i, sharedKeys[i].state.version))
        }
        for w in openWindows.indices where window == nil || window == w {
            for i in openWindows[w].dirtyScene.sorted() where covered(openWindows[w].sceneKeys.keys[i]) {
                open.scene.append((openWindows[w].sceneKeyRef(openWindows[w].sceneKeys.keys[i]), openWindows[w].sceneKeys.values[i].version))
            }
        }
        run.openSaves.append(open)
    }

    /// Saves what `open` covered at the versions it recorded (saved versions never go down).
    private mutating func endSave(_ open: OpenSave, _ rules: inout RuleSet) {
        if !open.group.isEmpty { groupSave = .end(open.group) }
        for (index, version) in open.shared {
            noteChanged(index)
            let (saved, cleaned) = Self.save(&sharedKeys[index].state, at: version)
            if cleaned { dirtyCount -= 1 }
            if saved, rules.hearsAppOnly { rules.observe(.keySaved(sharedKeys[index].ref, window: nil), &self) }
            run.pendingApp?.takeOff(sharedKeys[index].ref, savedAt: version)
        }
        for (key, version) in open.scene {
            guard let w = windowIndex(key.window), openWindows[w].instance == key.instance,
                  let i = openWindows[w].sceneKeys.index(of: key.name) else { continue }
            let (saved, cleaned) = openWindows[w].sceneKeys.update(at: i) { Self.save(&$0, at: version) }
            if cleaned {
                dirtyCount -= 1
                // `!`: the key was dirty, so its position is in the list.
                let j = openWindows[w].dirtyScene.firstIndex(of: i)!
                openWindows[w].dirtyScene.swapAt(j, openWindows[w].dirtyScene.count - 1)
                openWindows[w].dirtyScene.removeLast()
            }
            if saved, rules.hearsAppOnly { rules.observe(.keySaved(key, window: w), &self) }
            openWindows[w].pendingBackground?.takeOff(key, savedAt: version)
            restorationSaved(by: w)
        }
    }

    /// Saves `state` at `version` when that is above its saved version: whether it saved
    /// anything, and whether that left it with no unsaved changes (for ``dirtyCount``).
    private static func save(_ state: inout KeyState, at version: UInt64) -> (saved: Bool, cleaned: Bool) {
        guard version > state.saved else { return (false, false) }
        let wasDirty = state.isDirty
        if version >= state.version {
            state.markSaved()
        } else {
            state.saved = version
            state.savedWriters = state.writers
        }
        return (true, wasDirty && !state.isDirty)
    }
}

extension PendingSave {
    /// Takes `key` off this background save when `version` is at least the key's version just
    /// after the event that sent it to the background (rules.md, Readings 18). In place: a copy
    /// of the set at each save made a background with N keys followed by N saves quadratic.
    mutating func takeOff(_ key: KeyRef, savedAt version: UInt64) {
        guard let stake = versions[key], version >= stake else { return }
        keys.remove(key)
    }
}
