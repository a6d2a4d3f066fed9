/// One process's state rebuilt at one point of a trace (`replay --state --at SEQ`):
/// what was open, in which phase, with what unsaved.
public struct LifecycleState: Sendable, Hashable {
    /// The process (trace format 2): `""` for the main app, else the events' `process`.
    public var process: String = ""
    /// The seq of the last event applied.
    public var seq: UInt64
    /// The run the state belongs to (1-based), or 0 before the first launch.
    public var run: Int
    /// The platform of that run.
    public var platform: Platform?
    /// Whether the process is running (launched, not terminated).
    public var isRunning: Bool
    /// The aggregate app phase (the `scenePhase` an `App` observes).
    public var appPhase: LifecyclePhase?
    /// The last app-level phase event's phase (or the launch default), which windows without a phase of their own follow.
    public var appLevelPhase: LifecyclePhase?
    /// Open windows, in the order they opened.
    public var windows: [Window]
    /// `app` and `shared` keys with their versions.
    public var keys: [Key]
    /// App-wide activities still running, sorted.
    public var activities: [String]

    /// One open window.
    public struct Window: Sendable, Hashable {
        /// The window's id.
        public var id: WindowID
        /// Its scene's id.
        public var scene: String
        /// The canonical JSON of the value it presents, if any.
        public var value: String?
        /// Its phase: its own, or the app-level one it follows.
        public var phase: LifecyclePhase
        /// Whether it has had a phase event of its own.
        public var hasOwnPhase: Bool
        /// Whether the system restored it from a previous run.
        public var restored: Bool
        /// The seq of its `open`.
        public var openedAt: UInt64
        /// Its scene keys.
        public var keys: [Key]
        /// Activities it started that are still running, sorted.
        public var activities: [String]
    }

    /// One key and its versions.
    public struct Key: Sendable, Hashable {
        /// Where the key lives.
        public var scope: StateScope
        /// The key's name.
        public var name: String
        /// The current version (each write adds one).
        public var version: UInt64
        /// The last saved version.
        public var savedVersion: UInt64
        /// Whether there are unsaved changes.
        public var isDirty: Bool { version > savedVersion }
    }
}

extension LifecycleReducer {
    /// The state, after the last applied event, of the process of that event (the main app
    /// for a trace of one process). `Replayer.states(of:at:process:)` (in `LifecycleLog`) gives every process's.
    public var state: LifecycleState {
        var state = model.state(seq: lastSeq)
        if currentProcess != ReplayEvent.mainProcess { state.process = model.names[currentProcess] }
        return state
    }
}

extension LifecycleModel {
    /// The state, as of the event `seq`.
    func state(seq: UInt64) -> LifecycleState {
        let running = isRunning
        let openWindows = self.openWindows.sorted { $0.openSeq < $1.openSeq }.map { w in
            LifecycleState.Window(
                id: names[w.id], scene: names[w.scene], value: w.canonicalValue, phase: phase(of: w), hasOwnPhase: w.ownPhase != nil,
                restored: w.restored, openedAt: w.openSeq,
                keys: w.sceneKeys.keys.indices.map { i in
                    LifecycleState.Key(scope: .scene, name: names[w.sceneKeys.keys[i]], version: w.sceneKeys.values[i].version,
                                       savedVersion: w.sceneKeys.values[i].saved)
                }.sorted { $0.name < $1.name },
                activities: w.activities.keys.map { names[$0] }.sorted())
        }
        let keys = ordered(sharedKeys.filter(\.written).map(\.ref)).map { key in
            // `!`: key comes from sharedKeys.
            let k = sharedKeys[sharedIndex(key.name, key.scope)!].state
            return LifecycleState.Key(scope: key.scope, name: names[key.name], version: k.version, savedVersion: k.saved)
        }
        return LifecycleState(
            seq: seq, run: run.number, platform: hasRun ? run.platform : nil, isRunning: running,
            appPhase: running ? appPhase : nil, appLevelPhase: running ? run.appLevelPhase : nil,
            windows: running ? openWindows : [], keys: keys,
            activities: running ? run.appActivities.keys.map { names[$0] }.sorted() : [])
    }
}
