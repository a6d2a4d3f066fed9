/// State keys: reads, writes and saves, versions and writers, and the
/// lost updates and lost scene storage they reveal.
extension LifecycleReducer {
    /// What `window` (or the app, with none) has last seen of shared key `index`.
    @inline(__always)
    private func lastSeen(_ index: Int, by window: Int?) -> Seen {
        if let window { return openWindows[window].seen.seen(index) }
        // `!`: keys are only touched inside a run.
        return run.seen.seen(index)
    }

    private mutating func setLastSeen(_ index: Int, by window: Int?, _ seen: Seen) {
        if let window { openWindows[window].seen.set(index, seen) } else { run.seen.set(index, seen) }
    }

    mutating func applyWrite(seq: UInt64, key name: Name, scope: StateScope, window: Int?, base: UInt64?) {
        if scope == .scene {
            guard let window else { return }
            let instance = openWindows[window].instance
            if let i = openWindows[window].sceneKeys.index(of: name) {
                let becameDirty = openWindows[window].sceneKeys.update(at: i) { state -> Bool in
                    let wasDirty = state.isDirty
                    state.version += 1
                    state.writers.record(writer: instance, newVersion: state.version, seq: seq)
                    return !wasDirty
                }
                if becameDirty { dirtyCount += 1 }
            } else {
                var state = KeyState()
                state.version = 1
                state.writers.record(writer: instance, newVersion: 1, seq: seq)
                openWindows[window].sceneKeys[name] = state
                dirtyCount += 1
            }
            return
        }
        let index = addSharedKey(name, scope)
        let state = sharedKeys[index].state
        let me = window.map { openWindows[$0].instance } ?? run.appWriter
        let seen = lastSeen(index, by: window)
        let effectiveBase = base ?? seen.version
        if effectiveBase < state.version, let other = state.writers.latestWrite(notBy: me, current: state.version), other.version > effectiveBase {
            let key = sharedKeys[index].ref
            let who = window.map { "Window \(names[openWindows[$0].id])" } ?? "The app"
            var related = [other.seq]
            if base == nil { related.append(seen.seq) }
            report(.lostUpdate, at: seq, related: related,
                   "\(who) wrote \(display(key)) from version \(effectiveBase)\(base == nil ? " (the last it saw, at seq \(seen.seq))" : ""), but it was already at version \(state.version) after another writer's change at seq \(other.seq): that change is overwritten unseen. Re-read the shared model before writing (merge instead of replacing), or give each window its own copy and merge on save.")
        }
        if !state.isDirty { dirtyCount += 1 }
        sharedKeys[index].written = true
        sharedKeys[index].state.version += 1
        let version = sharedKeys[index].state.version
        sharedKeys[index].state.writers.record(writer: me, newVersion: version, seq: seq)
        sharedVersions[index] = version
        setLastSeen(index, by: window, Seen(version: version, seq: seq))
    }

    mutating func applyRead(seq: UInt64, key name: Name, scope: StateScope, window: Int?, version: UInt64?) {
        if scope == .scene {
            guard let window else { return }
            let observed = version ?? openWindows[window].sceneKeys[name]?.version ?? 0
            if openWindows[window].restored, observed == 0, let saved = openWindows[window].restoredFrom[name], saved > 0 {
                report(.sceneStorageLost, at: seq, related: [openWindows[window].openSeq],
                       "Restored window \(names[openWindows[window].id]) read scene key \"\(names[name])\" as empty (version 0), but the window it restores had saved version \(saved). Keep the window's state in @SceneStorage (or restore it in .onAppear from what was saved) instead of starting empty.")
            }
            return
        }
        let index = addSharedKey(name, scope)
        let observed = version ?? sharedKeys[index].state.version
        setLastSeen(index, by: window, Seen(version: observed, seq: seq))
    }

    /// A `save`: with a window, its scene keys and every app/shared key;
    /// without, every open window's scene keys too; `keys` narrows by name.
    mutating func applySave(keys names: [Name]?, window: Int?) {
        func covered(_ name: Name) -> Bool { names?.contains(name) ?? true }
        for i in sharedKeys.indices where sharedKeys[i].state.isDirty && covered(sharedKeys[i].ref.name) {
            sharedKeys[i].state.markSaved()
            dirtyCount -= 1
        }
        if let pending = run.pendingApp {
            run.pendingApp?.keys = pending.keys.filter { !covered($0.name) }
        }
        if let window {
            saveSceneKeys(of: window, covered)
        } else {
            for index in openWindows.indices { saveSceneKeys(of: index, covered) }
        }
    }

    private mutating func saveSceneKeys(of index: Int, _ covered: (Name) -> Bool) {
        guard !openWindows[index].sceneKeys.isEmpty else { return }
        var savedAny = false
        for i in 0..<openWindows[index].sceneKeys.count
        where openWindows[index].sceneKeys.values[i].isDirty && covered(openWindows[index].sceneKeys.keys[i]) {
            openWindows[index].sceneKeys.update(at: i) { $0.markSaved() }
            dirtyCount -= 1
            savedAny = true
        }
        if let pending = openWindows[index].pendingBackground {
            openWindows[index].pendingBackground?.keys = pending.keys.filter { !covered($0.name) }
        }
        if savedAny {
            restorations[openWindows[index].restorationSlot].setSavedVersions(of: openWindows[index].sceneKeys)
        }
    }

    mutating func applyActivity(seq: UInt64, name: Name, state: ActivityState, window: Int?) {
        if let window {
            let started = openWindows[window].activities[name] ?? seq
            openWindows[window].activities[name] = state == .start ? started : nil
        } else {
            let started = run.appActivities[name] ?? seq
            run.appActivities[name] = state == .start ? started : nil
        }
    }

    // MARK: Exposure (--explore)

    /// Extends or closes the current `kill-exposure` stretch after an event.
    mutating func trackExposure(seq: UInt64) {
        let exposed = isRunning && dirtyCount > 0 && appPhase != .active
        guard exposed else { closeExposure(); return }
        let dirty = dirtyKeys()
        if exposure == nil {
            exposure = ExposureStretch(firstSeq: seq, lastSeq: seq, keys: dirty)
        } else {
            exposure?.lastSeq = seq
            exposure?.keys.formUnion(dirty)
        }
    }

    mutating func closeExposure() {
        guard let stretch = exposure else { return }
        exposure = nil
        let keys = ordered(stretch.keys)
        report(.killExposure, at: stretch.firstSeq, related: [stretch.lastSeq],
               "From seq \(stretch.firstSeq) to seq \(stretch.lastSeq) the app was inactive or in the background with unsaved \(list(keys)); a kill there (app switcher, suspension) would have lost \(keys.count == 1 ? "it" : "them"). Save as soon as the scene phase leaves .active.")
    }
}
