/// State keys: reads, writes and saves, versions and writers; and activities.
extension LifecycleModel {
    /// What `window` (or the app, with none) has last seen of shared key `index`.
    @inline(__always)
    private func lastSeen(_ index: Int, by window: Int?) -> Seen {
        let start: UInt64
        if let window {
            if let seen = openWindows[window].seen.last(index) { return seen }
            start = openWindows[window].seen.startSeq
        } else {
            if let seen = run.seen.last(index) { return seen }
            start = run.seen.startSeq
        }
        // Not read or written since it started: seen as it was then.
        return Seen(version: sharedVersions.version(index, at: start), seq: start)
    }

    private mutating func setLastSeen(_ index: Int, by window: Int?, _ seen: Seen) {
        if let window { openWindows[window].seen.set(index, seen) } else { run.seen.set(index, seen) }
    }

    mutating func applyWrite(seq: UInt64, key name: Name, scope: StateScope, window: Int?, base: UInt64?,
                                                    _ rules: inout RuleSet) {
        if scope == .scene {
            guard let window else { return }
            let instance = openWindows[window].instance
            if let i = openWindows[window].sceneKeys.index(of: name) {
                let current = openWindows[window].sceneKeys.values[i].version
                if rules.hearsAppOnly { rules.observe(.keyWritten(KeyWrite(key: name, scope: scope, window: window, writer: instance, base: current, baseGiven: false,
                                                      seenSeq: 0, current: current, other: nil, sharedIndex: -1)), &self) }
                let becameDirty = openWindows[window].sceneKeys.update(at: i) { state -> Bool in
                    let wasDirty = state.isDirty
                    state.version += 1
                    state.writers.record(writer: instance, newVersion: state.version, seq: seq)
                    state.lastWrite = seq
                    return !wasDirty
                }
                if becameDirty {
                    dirtyCount += 1
                    openWindows[window].dirtyScene.append(i)
                }
            } else {
                if rules.hearsAppOnly { rules.observe(.keyWritten(KeyWrite(key: name, scope: scope, window: window, writer: instance, base: 0, baseGiven: false,
                                                      seenSeq: 0, current: 0, other: nil, sharedIndex: -1)), &self) }
                var state = KeyState()
                state.version = 1
                state.writers.record(writer: instance, newVersion: 1, seq: seq)
                state.lastWrite = seq
                openWindows[window].sceneKeys[name] = state
                openWindows[window].dirtyScene.append(openWindows[window].sceneKeys.count - 1)
                dirtyCount += 1
            }
            return
        }
        let index = addSharedKey(name, scope)
        let state = sharedKeys[index].state
        let me = window.map { openWindows[$0].instance } ?? run.appWriter
        let seen = lastSeen(index, by: window)
        if rules.hearsSharedWrite(base: base ?? seen.version, current: state.version) {
            rules.observe(.keyWritten(KeyWrite(key: name, scope: scope, window: window, writer: me, base: base ?? seen.version, baseGiven: base != nil,
                                                  seenSeq: seen.seq, current: state.version,
                                                  other: state.writers.latestWrite(notBy: me, current: state.version), sharedIndex: index)), &self)
        }
        noteChanged(index)
        sharedKeys[index].written = true
        sharedKeys[index].state.version += 1
        if !state.isDirty {
            dirtyCount += 1
            noteDirtyShared(index)  // after the change: a compaction there keeps only dirty keys
        }
        let version = sharedKeys[index].state.version
        sharedKeys[index].state.writers.record(writer: me, newVersion: version, seq: seq)
        sharedKeys[index].state.lastWrite = seq
        sharedVersions.set(index, version, at: seq)
        setLastSeen(index, by: window, Seen(version: version, seq: seq))
    }

    mutating func applyRead(seq: UInt64, key name: Name, scope: StateScope, window: Int?, version: UInt64?,
                                                   _ rules: inout RuleSet) {
        if scope == .scene {
            guard let window else { return }
            let observed = version ?? openWindows[window].sceneKeys[name]?.version ?? 0
            rules.observe(.keyRead(key: name, scope: scope, window: window, observed: observed), &self)
            return
        }
        let index = addSharedKey(name, scope)
        let observed = version ?? sharedKeys[index].state.version
        setLastSeen(index, by: window, Seen(version: observed, seq: seq))
        if rules.hearsAppOnly { rules.observe(.keyRead(key: name, scope: scope, window: window, observed: observed), &self) }
    }

    /// A `save`: with a window, its scene keys and every app/shared key;
    /// without, every open window's scene keys too; `keys` narrows by name.
    mutating func applySave(keys names: [Name]?, window: Int?, _ rules: inout RuleSet) {
        func covered(_ name: Name) -> Bool { names?.contains(name) ?? true }
        // A key of another scope than `document` is decided here, before anything of the model is
        // passed on: the call for a document key took a copy of the whole model at every key.
        func coveredShared(_ ref: KeyRef) -> Bool {
            ref.scope != .document ? names?.contains(ref.name) ?? true : saveCovers(ref, names: names, window: window)
        }
        if tracksGroupKeys { groupSave = .save(names: names) }
        // `group` keys are saved by the reducer, in every process (LifecycleReducer+Group.swift).
        // The keys with unsaved changes, in key order (as the rules have always heard them).
        if !dirtyShared.isEmpty {
            compactDirtyShared()
            var kept = 0
            for j in dirtyShared.indices {
                let i = dirtyShared[j]
                guard sharedKeys[i].ref.scope != .group, coveredShared(sharedKeys[i].ref) else {
                    dirtyShared[kept] = i
                    kept += 1
                    continue
                }
                noteChanged(i)
                sharedKeys[i].state.markSaved()
                dirtyCount -= 1
                if rules.hearsAppOnly { rules.observe(.keySaved(sharedKeys[i].ref, window: nil), &self) }
            }
            dirtyShared.truncate(to: kept)
        }
        if let pending = run.pendingApp {
            let left = pending.keys.filter { !coveredShared($0) }
            run.pendingApp?.keys = left
        }
        if let window {
            saveSceneKeys(of: window, covered, &rules)
        } else {
            for index in openWindows.indices { saveSceneKeys(of: index, covered, &rules) }
        }
    }

    private mutating func saveSceneKeys(of index: Int, _ covered: (Name) -> Bool, _ rules: inout RuleSet) {
        guard !openWindows[index].sceneKeys.isEmpty else { return }
        var savedAny = false
        if !openWindows[index].dirtyScene.isEmpty {
            // The dirty keys in key order (as the rules have always heard them), compacted in place.
            openWindows[index].dirtyScene.sortSmall()
            let count = openWindows[index].dirtyScene.count
            var kept = 0
            for j in 0..<count {
                let i = openWindows[index].dirtyScene[j]
                guard covered(openWindows[index].sceneKeys.keys[i]) else {
                    openWindows[index].dirtyScene[kept] = i
                    kept += 1
                    continue
                }
                openWindows[index].sceneKeys.update(at: i) { $0.markSaved() }
                dirtyCount -= 1
                savedAny = true
                if rules.hearsAppOnly { rules.observe(.keySaved(openWindows[index].sceneKeyRef(openWindows[index].sceneKeys.keys[i]), window: index), &self) }
            }
            openWindows[index].dirtyScene.truncate(to: kept)
        }
        if let pending = openWindows[index].pendingBackground {
            openWindows[index].pendingBackground?.keys = pending.keys.filter { !covered($0.name) }
        }
        if savedAny { restorationSaved(by: index) }
    }

    // Rare: out of line, so that the per-event `applyInRun` stays small.
    @inline(never)
    mutating func applyActivity(seq: UInt64, name: Name, state: LifecycleActivityState, window: Int?, _ rules: inout RuleSet) {
        let names = self.names
        if let window {
            openWindows[window].applyActivity(name, start: state == .start, seq: seq, names: names)
        } else {
            run.applyAppActivity(name, start: state == .start, seq: seq, names: names)
        }
        if rules.hearsAppOnly {
            rules.observe(state == .start ? .activityStarted(name: name, window: window) : .activityStopped(name: name, window: window), &self)
        }
    }
}
