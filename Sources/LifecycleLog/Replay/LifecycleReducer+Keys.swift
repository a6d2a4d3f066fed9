/// State keys: reads, writes and saves, versions and writers, and the
/// lost updates and lost scene storage they reveal.
extension LifecycleReducer {
    /// The writer of an event: its window's instance, or the run's app writer.
    private func writer(_ window: WindowID?) -> Int {
        window.flatMap { windows[$0]?.instance } ?? run?.appWriter ?? 0
    }

    /// What `window` (or the app, with none) has last seen of a shared key.
    private func lastSeen(_ key: KeyRef, by window: WindowID?) -> Seen {
        if let window, let open = windows[window] {
            return open.lastSeen[key] ?? Seen(version: open.seenAtOpen[key] ?? 0, seq: open.openSeq)
        }
        // `!`: keys are only touched inside a run; fields are read in place, not by copying the run.
        return run!.appLastSeen[key] ?? Seen(version: run!.seenAtLaunch[key] ?? 0, seq: run!.launchSeq)
    }

    private mutating func setLastSeen(_ key: KeyRef, by window: WindowID?, _ seen: Seen) {
        if let window { windows[window]?.lastSeen[key] = seen } else { run?.appLastSeen[key] = seen }
    }

    mutating func applyWrite(seq: UInt64, key name: String, scope: StateScope, window: WindowID?, base: UInt64?) {
        if scope == .scene {
            guard let window, var open = windows[window] else { return }
            var state = open.sceneKeys[name] ?? KeyState()
            state.version += 1
            state.writers.record(writer: open.instance, newVersion: state.version, seq: seq)
            open.sceneKeys[name] = state
            windows[window] = open
            dirty.insert(open.sceneKeyRef(name))
            return
        }
        let key = KeyRef(scope: scope, name: name)
        var state = sharedKeys[key] ?? KeyState()
        let me = writer(window)
        let seen = lastSeen(key, by: window)
        let effectiveBase = base ?? seen.version
        if effectiveBase < state.version, let other = state.writers.latestWrite(notBy: me, current: state.version), other.version > effectiveBase {
            let who = window.map { "Window \($0)" } ?? "The app"
            var related = [other.seq]
            if base == nil { related.append(seen.seq) }
            report(.lostUpdate, at: seq, related: related,
                   "\(who) wrote \(key.display) from version \(effectiveBase)\(base == nil ? " (the last it saw, at seq \(seen.seq))" : ""), but it was already at version \(state.version) after another writer's change at seq \(other.seq): that change is overwritten unseen. Re-read the shared model before writing (merge instead of replacing), or give each window its own copy and merge on save.")
        }
        state.version += 1
        state.writers.record(writer: me, newVersion: state.version, seq: seq)
        sharedKeys[key] = state
        sharedVersions[key] = state.version
        dirty.insert(key)
        setLastSeen(key, by: window, Seen(version: state.version, seq: seq))
    }

    mutating func applyRead(seq: UInt64, key name: String, scope: StateScope, window: WindowID?, version: UInt64?) {
        if scope == .scene {
            guard let window, let open = windows[window] else { return }
            let observed = version ?? open.sceneKeys[name]?.version ?? 0
            if open.restored, observed == 0, let saved = open.restoredFrom[name], saved > 0 {
                report(.sceneStorageLost, at: seq, related: [open.openSeq],
                       "Restored window \(window) read scene key \"\(name)\" as empty (version 0), but the window it restores had saved version \(saved). Keep the window's state in @SceneStorage (or restore it in .onAppear from what was saved) instead of starting empty.")
            }
            return
        }
        let key = KeyRef(scope: scope, name: name)
        let observed = version ?? sharedKeys[key]?.version ?? 0
        setLastSeen(key, by: window, Seen(version: observed, seq: seq))
    }

    /// A `save`: with a window, its scene keys and every app/shared key;
    /// without, every open window's scene keys too; `keys` narrows by name.
    mutating func applySave(keys names: Set<String>?, window: WindowID?) {
        func covered(_ name: String) -> Bool { names?.contains(name) ?? true }
        for (key, var state) in sharedKeys where covered(key.name) && state.saved != state.version {
            state.markSaved()
            sharedKeys[key] = state
            dirty.remove(key)
        }
        if var pending = run?.pendingApp {
            pending.keys = pending.keys.filter { !covered($0.name) }
            run?.pendingApp = pending
        }
        let savedWindows = window.map { [$0] } ?? Array(windows.keys)
        for id in savedWindows {
            // In place: a copy of the window would make its tables copy on write.
            guard let index = windows.index(forKey: id), !windows.values[index].sceneKeys.isEmpty else { continue }
            // Names first: mutating a dictionary while iterating it would copy it.
            let toSave = windows.values[index].sceneKeys.filter { covered($0.key) && $0.value.isDirty }.map(\.key)
            for name in toSave {
                windows.values[index].sceneKeys[name]?.markSaved()
                dirty.remove(windows.values[index].sceneKeyRef(name))
            }
            let savedAny = !toSave.isEmpty
            if let pending = windows.values[index].pendingBackground {
                let unsaved = pending.keys.filter { !covered($0.name) }
                windows.values[index].pendingBackground?.keys = unsaved
            }
            if savedAny {
                restoration[windows.values[index].restorationIdentity] = windows.values[index].sceneKeys.mapValues(\.saved)
            }
        }
    }

    mutating func applyActivity(seq: UInt64, name: String, state: ActivityState, window: WindowID?) {
        if let window {
            let started = windows[window]?.activities[name] ?? seq
            windows[window]?.activities[name] = state == .start ? started : nil
        } else {
            let started = run?.appActivities[name] ?? seq
            run?.appActivities[name] = state == .start ? started : nil
        }
    }

    // MARK: Exposure (--explore)

    /// Extends or closes the current `kill-exposure` stretch after an event.
    mutating func trackExposure(seq: UInt64) {
        let exposed = run != nil && run?.terminateSeq == nil && appPhase != .active && !dirty.isEmpty
        guard exposed else { closeExposure(); return }
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
        let keys = stretch.keys.sorted()
        report(.killExposure, at: stretch.firstSeq, related: [stretch.lastSeq],
               "From seq \(stretch.firstSeq) to seq \(stretch.lastSeq) the app was inactive or in the background with unsaved \(Self.list(keys)); a kill there (app switcher, suspension) would have lost \(keys.count == 1 ? "it" : "them"). Save as soon as the scene phase leaves .active.")
    }
}
