import Dispatch

/// Records lifecycle events into a trace file while an app or a test session runs.
///
/// Calls cost the calling thread one short lock and an array append: events
/// are committed in batches on a background queue, after ``Durability/batched(maxDelayMilliseconds:maxEvents:)``'s
/// delay or event count, whichever comes first. Events get their seq in the order the
/// recorder receives them, from any thread or actor. When the app goes to the
/// background or terminates, the recorder commits and syncs before the call
/// returns, so that it does not lose its own last events to the kill it is recording.
///
/// ```swift
/// let recorder = try LifecycleRecorder(path: tracePath)
/// recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
/// recorder.open(window: "w1", scene: "main")
/// recorder.phase(.active, window: "w1")
/// try recorder.flush()
/// ```
///
/// Opening an existing trace continues its seq numbering, and its `t`: the
/// first new event's time is the last stored one plus the time since the
/// recorder opened. A new ``launch(platform:scenes:reason:app:os:build:)``
/// starts a new run.
public final class LifecycleRecorder: Sendable {
    /// When recorded events reach the disk.
    public enum Durability: Sendable, Hashable {
        /// Commit (and sync) in batches: after `maxDelayMilliseconds` or
        /// `maxEvents` pending events, whichever comes first.
        case batched(maxDelayMilliseconds: Int = 50, maxEvents: Int = 1024)
        /// Commit and sync every event before the call returns.
        case everyEvent
    }

    /// A monotonic clock in milliseconds from an arbitrary origin.
    public typealias Clock = @Sendable () -> Double

    /// The system's monotonic clock.
    public static let systemClock: Clock = {
        let origin = ContinuousClock.now
        return {
            let elapsed = ContinuousClock.now - origin
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
    }()

    private struct State {
        var pending: [Event] = []
        /// The emptied buffer of the last commit, reused for the next batch.
        var spare: [Event] = []
        var flushScheduled = false
        var commitQueued = false
        var lastT: Double
        var error: LifecycleLogError?
        var closed = false
    }

    private let durability: Durability
    private let clock: Clock
    private let origin: Double
    private let baseTime: Double
    private let state: Locked<State>
    /// The writer; appends happen under this lock, batches taken in order inside it.
    private let writer: Locked<TraceWriter?>
    private let queue = DispatchQueue(label: "LifecycleRecorder")
    /// The trace file being recorded.
    public let path: String

    /// Opens (or creates) the trace at `path` for recording.
    ///
    /// - Parameters:
    ///   - path: the trace file; created when missing, continued when it is a trace.
    ///   - durability: when events reach the disk; batched by default.
    ///   - clock: the monotonic clock that gives `t`; inject one in tests.
    /// - Throws: ``LifecycleLogError`` when the file cannot be opened or is not a trace.
    public init(path: String, durability: Durability = .batched(), clock: @escaping Clock = LifecycleRecorder.systemClock) throws {
        let traceWriter = try TraceWriter(path: path, sharing: .shared)
        self.path = path
        self.durability = durability
        self.clock = clock
        origin = clock()
        baseTime = traceWriter.lastTime
        state = Locked(State(lastT: traceWriter.lastTime))
        writer = Locked(traceWriter)
    }

    deinit { try? close() }

    // MARK: One call per event kind

    /// Records a `launch`: the process started. Starts a new run.
    public func launch(platform: Platform, scenes: [SceneDeclaration], reason: String? = nil, app: String? = nil, os: String? = nil, build: String? = nil) {
        record(.launch(Event.Launch(platform: platform, scenes: scenes, reason: reason, app: app, os: os, build: build)))
    }

    /// Records a clean `terminate`, and commits and syncs before returning.
    public func terminate(reason: String? = nil) { record(.terminate(reason: reason)) }

    /// Records that a window of `scene` appeared.
    public func open(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool? = nil) {
        record(.open(window: window, scene: scene, value: value, restored: restored))
    }

    /// Records that a window is gone.
    public func dismiss(window: WindowID, reason: String? = nil) { record(.dismiss(window: window, reason: reason)) }

    /// Records a `scenePhase` change of `window`, or of the app without one.
    /// A `.background` phase commits and syncs before returning.
    public func phase(_ phase: ScenePhase, window: WindowID? = nil) { record(.phase(phase, window: window)) }

    /// Records an app-delegate-adaptor or scene-delegate callback (`didFinishLaunching`, `sceneWillConnect`, …).
    public func delegate(_ callback: String, window: WindowID? = nil) { record(.delegate(callback: callback, window: window)) }

    /// Records a change of a state key.
    public func write(key: String, scope: StateScope, window: WindowID? = nil, base: UInt64? = nil) {
        record(.write(key: key, scope: scope, window: window, base: base))
    }

    /// Records a read of a state key.
    public func read(key: String, scope: StateScope, window: WindowID? = nil, version: UInt64? = nil) {
        record(.read(key: key, scope: scope, window: window, version: version))
    }

    /// Records that state was persisted.
    public func save(keys: [String]? = nil, window: WindowID? = nil, store: String? = nil) {
        record(.save(keys: keys, window: window, store: store))
    }

    /// Records that work that should not run unseen started or stopped.
    public func activity(_ name: String, _ state: ActivityState, window: WindowID? = nil) {
        record(.activity(name: name, state: state, window: window))
    }

    /// Records a note from the test session.
    public func mark(_ label: String) { record(.mark(label: label)) }

    /// Records any event kind, with extra fields.
    public func record(_ kind: Event.Kind, extraFields: [JSONMember] = []) {
        let now = baseTime + max(0, clock() - origin)
        let next = state.withLock { s -> NextStep in
            guard !s.closed else { return .closed }
            s.lastT = max(s.lastT, now)  // t never goes backwards, whatever the clock does
            s.pending.append(Event(t: s.lastT, kind, extraFields: extraFields))
            guard case .batched(_, let maxEvents) = durability else { return .commitNow }
            if s.pending.count >= maxEvents, !s.commitQueued {
                s.commitQueued = true
                return .commitSoon
            }
            if s.flushScheduled { return .nothing }
            s.flushScheduled = true
            return .commitAfterDelay
        }
        if next == .closed { return }
        // The app is about to be suspended or to end: commit before returning.
        var urgent = next == .commitNow
        switch kind {
        case .terminate, .phase(.background, _): urgent = true
        default: break
        }
        if urgent {
            try? commitPending()
            return
        }
        switch next {
        case .commitAfterDelay:
            if case .batched(let delay, _) = durability {
                queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in try? commitPending() }
            }
        case .commitSoon:
            queue.async { [self] in try? commitPending() }
        case .nothing, .commitNow, .closed:
            break
        }
    }

    private enum NextStep {
        case nothing, commitAfterDelay, commitSoon, commitNow, closed
    }

    /// Commits every event recorded so far; LMDB syncs the file on commit.
    ///
    /// - Throws: ``LifecycleLogError`` when a commit failed (for example the
    ///   disk is full); the events stay pending and the next flush retries them.
    public func flush() throws { try commitPending() }

    /// Flushes and closes the trace; later calls record nothing.
    ///
    /// - Throws: ``LifecycleLogError`` from the last flush.
    public func close() throws {
        try commitPending()
        state.withLock { $0.closed = true }
        writer.withLock { $0 = nil }
    }

    /// The error of the last failed background commit, if any.
    public var lastError: LifecycleLogError? { state.withLock { $0.error } }

    /// Appends what is pending in one transaction. Batches are taken inside
    /// the writer lock, so they land in the order they were recorded.
    private func commitPending() throws {
        try writer.withLock { writer in
            // Double buffering: the pending events are swapped out for the
            // buffer of the last commit, emptied, so neither is reallocated.
            var batch = state.withLock { s -> [Event] in
                s.flushScheduled = false
                s.commitQueued = false
                var taken = s.spare
                swap(&taken, &s.pending)
                s.spare = []
                return taken
            }
            guard let writer, !batch.isEmpty else { return }
            do {
                try writer.append(batch)
                batch.removeAll(keepingCapacity: true)
                state.withLock { s in
                    s.error = nil
                    s.spare = batch
                }
            } catch let error as LifecycleLogError {
                state.withLock { s in
                    s.pending.insert(contentsOf: batch, at: 0)  // keep them, in order, for the next try
                    s.error = error
                }
                throw error
            }
        }
    }
}
