/// Runs: launch, terminate, and what a run's end decides.
extension LifecycleReducer {
    mutating func applyLaunch(seq: UInt64, t: Double, _ launch: ReplayLaunch) {
        if isRunning {
            endRun(at: seq, nextLaunch: (seq, t, launch))
        }
        runCount += 1
        // What was saved outlives the run; nothing else does.
        for i in sharedKeys.indices {
            let state = sharedKeys[i].state
            sharedKeys[i].state = KeyState(saved: state.saved, writers: state.savedWriters)
            sharedVersions[i] = state.saved
        }
        removeAllWindows()
        dirtyCount = 0
        // The new run reuses the last one's table storage, emptied.
        run.relaunch(number: runCount, launchSeq: seq, launchT: t, launch: launch, appWriter: takeInstance(),
                     seen: SeenVersions(atStart: sharedVersions, startSeq: seq))
        checkSupportedScenes(seq: seq, launch)
    }

    mutating func takeInstance() -> Int {
        defer { nextInstance += 1 }
        return nextInstance
    }

    private mutating func checkSupportedScenes(seq: UInt64, _ launch: ReplayLaunch) {
        guard launch.scenes.contains(where: { !Self.platform(launch.platform, supports: $0.kind) }) else { return }
        let unsupported = launch.scenes.filter { !Self.platform(launch.platform, supports: $0.kind) }
        let shown = unsupported.map { "\($0.kind.rawValue) \"\(names[$0.id])\"" }.joined(separator: ", ")
        report(.unsupportedScene, at: seq, related: [],
               "The launch on \(launch.platform.rawValue) declares \(shown), which \(launch.platform.rawValue) does not have. Wrap the scene in #if os(…) so that it is declared only where it exists.")
    }

    static func platform(_ platform: Platform, supports kind: SceneKind) -> Bool {
        switch kind {
        case .settings, .menuBarExtra: return platform == .macOS
        case .window: return platform == .macOS || platform == .visionOS
        case .immersiveSpace: return platform == .visionOS
        case .documentGroup: return platform != .tvOS && platform != .watchOS
        default: return true
        }
    }

    /// Ends the current run at `seq`: by `terminate` (`nextLaunch` nil) or by
    /// the next `launch` (the process was killed).
    mutating func endRun(at seq: UInt64, nextLaunch: (seq: UInt64, t: Double, launch: ReplayLaunch)?) {
        guard hasRun else { return }
        let ended = (number: run.number, launchSeq: run.launchSeq, launchT: run.launchT, lastSeq: run.lastSeq, build: run.build, os: run.os,
                     isBackgroundLaunch: run.isBackgroundLaunch, everActive: run.everActive)
        resolvePendingSaves()
        var unsaved: [KeyRef] = []
        if dirtyCount > 0 {
            let reported = run.reportedByMissedSave
            unsaved = ordered(dirtyKeys().subtracting(reported))
        }
        if !unsaved.isEmpty {
            let how = nextLaunch == nil
                ? "The app terminated"
                : "The process was killed (the next launch came with no terminate)"
            report(.unsavedAtExit, at: seq, related: lastWriteSeqs(unsaved),
                   "\(how) with unsaved \(list(unsaved)). Saving only on .background misses this: a quit on macOS sends no phase change and a kill can come while .inactive. Save when the scene phase becomes .inactive, on applicationWillTerminate, and after edits.")
        }
        if let next = nextLaunch {
            let endPhase = appPhase
            let updated = (next.launch.build != nil && next.launch.build != ended.build)
                || (next.launch.os != nil && next.launch.os != ended.os)
            let unclean = endPhase != .background && !updated
            if unclean {
                report(.uncleanExit, at: next.seq, related: [ended.launchSeq, ended.lastSeq],
                       "Run \(ended.number) (launched at seq \(ended.launchSeq)) ended while \(endPhase.rawValue), with no terminate: a crash, watchdog or out-of-memory kill in the foreground is likely. Check crash logs for that time; save state before work that may fail.")
            }
            if unclean, !ended.isBackgroundLaunch, !ended.everActive, next.t - ended.launchT > configuration.slowLaunchLimit {
                report(.slowLaunch, at: next.seq, related: [ended.launchSeq],
                       "Run \(ended.number) was killed \(JSONWriter.number(next.t - ended.launchT)) ms after its launch at seq \(ended.launchSeq) without ever becoming active: the launch watchdog kills apps that take about \(JSONWriter.number(configuration.slowLaunchLimit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
            }
        }
        closeExposure()
        removeAllWindows()
        dirtyCount = 0
    }

    /// Decides every pending background save: what is still unsaved is a `missed-background-save`.
    mutating func resolvePendingSaves() {
        if let pending = run.pendingApp {
            run.pendingApp = nil
            recordMissedSave(pending)
        }
        var pendingWindows: [(id: String, index: Int)] = []
        for i in openWindows.indices where openWindows[i].pendingBackground != nil { pendingWindows.append((names[openWindows[i].id], i)) }
        pendingWindows.sort { $0.id < $1.id }
        for (_, index) in pendingWindows {
            if let pending = openWindows[index].pendingBackground {
                openWindows[index].pendingBackground = nil
                recordMissedSave(pending)
            }
        }
    }

    mutating func recordMissedSave(_ pending: PendingSave) {
        guard !pending.keys.isEmpty else { return }
        run.reportedByMissedSave.formUnion(pending.keys)
        var record = missedSaves[pending.seq] ?? (keys: [], related: [])
        record.keys.formUnion(pending.keys)
        record.related.formUnion(lastWriteSeqs(pending.keys))
        missedSaves[pending.seq] = record
    }
}
