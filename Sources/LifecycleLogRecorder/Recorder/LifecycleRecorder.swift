import Dispatch
internal import LifecycleLogPlatform

/// Records lifecycle events while an app or a test session runs, into a
/// ``RecordingSink``: a spool file in the app's container, a live stream to a
/// collector on the developer's machine, or (with `LifecycleLog`, where
/// liblmdb exists) an LMDB trace.
///
/// Calls cost the calling thread one short lock and an array append: events
/// are committed in batches on a background queue, after ``Durability/batched(maxDelayMilliseconds:maxEvents:)``'s
/// delay or event count, whichever comes first. Events get their seq in the order the
/// recorder receives them, from any thread or actor. When the app goes to the
/// background or terminates, the recorder commits and syncs before the call
/// returns, so that it does not lose its own last events to the kill it is recording.
///
/// ```swift
/// let recorder = LifecycleRecorder(sink: MemorySink())
/// recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
/// recorder.open(window: "w1", scene: "main")
/// recorder.phase(.active, window: "w1")
/// try recorder.flush()
/// ```
///
/// Recording never throws into the app and never stops it: a failed write
/// keeps the events in memory, in order, for the next try, and is reported
/// through ``lastError`` (and the unified log on Apple platforms). Only an
/// explicit ``flush()`` or ``close()`` throws.
///
/// A sink that continues an existing trace continues its `t`: the first new
/// event's time is the sink's ``RecordingSink/lastTime`` plus the time since
/// the recorder started. A new ``launch(platform:scenes:reason:app:os:build:debugger:harness:activation:process:)``
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

    /// The system's monotonic clock, counting while the device sleeps: the clock
    /// `ContinuousClock` reads (`CLOCK_MONOTONIC_RAW` on Apple platforms, `CLOCK_BOOTTIME`
    /// on Linux).
    ///
    /// Read with `clock_gettime` rather than `ContinuousClock.now`: turning a
    /// `Duration` into milliseconds costs 128-bit arithmetic, several times the
    /// rest of a record call.
    public static let systemClock: Clock = {
        let origin = monotonicMilliseconds()
        return { monotonicMilliseconds() - origin }
    }()

    @inline(__always)
    private static func monotonicMilliseconds() -> Double {
        var now = timespec()
        #if canImport(Darwin)
        clock_gettime(CLOCK_MONOTONIC_RAW, &now)
        #else
        clock_gettime(CLOCK_BOOTTIME, &now)
        #endif
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    private struct State {
        var pending: [LifecycleEvent] = []
        /// The emptied buffer of the last commit, reused for the next batch.
        var spare: [LifecycleEvent] = []
        var flushScheduled = false
        var commitQueued = false
        var lastT: Double
        var error: LifecycleLogError?
        /// The last call that was not recorded because its event was not valid.
        var misuse: LifecycleLogError?
        var closed = false
        /// Events not recorded because ``maxPendingEvents`` were already waiting.
        var dropped = 0
        /// A `launch` whose reason is not decided yet, by its position in ``pending``: nothing from
        /// there on is committed until ``LifecycleRecorder/decideHeldLaunch(reason:startsInBackground:)``
        /// (``HeldLaunch``).
        var held: HeldLaunch?
    }

    /// A launch held until what follows it says why the process started (issue 29:
    /// `LaunchReasonDecision`), with the reason it gets if nothing does in time.
    private struct HeldLaunch {
        var index: Int
        var fallback: String
    }

    /// At most this many events follow a held launch before it is given its fallback reason:
    /// the decision comes within the launch sequence, and a process that dies while events are
    /// held loses them.
    package static let maxEventsAfterHeldLaunch = 64

    private let durability: Durability
    /// At most this many events wait in memory for a sink that fails or cannot keep up.
    private let maxPendingEvents: Int
    private let clock: Clock
    private let origin: Double
    private let baseTime: Double
    private let state: Locked<State>
    /// The sink; writes happen under this lock, batches taken in order inside it.
    private let writer: Locked<(any RecordingSink)?>
    private let queue = DispatchQueue(label: "LifecycleRecorder")
    /// Where the events go, as the sink names it (a file path, `host:port`).
    public let destination: String
    /// The sink, kept after ``close()`` so that tests can read back what it holds
    /// (`LifecycleLogTesting` replays a `MemorySink`'s events or a `SpoolSink`'s file).
    package let sink: any RecordingSink

    /// Starts recording into `sink`. Never fails: a sink that cannot write
    /// reports it through ``lastError`` and the events wait in memory.
    ///
    /// - Parameters:
    ///   - sink: where the events go.
    ///   - durability: when events reach the sink; batched by default.
    ///   - clock: the monotonic clock that gives `t`; inject one in tests.
    ///   - maxPendingEvents: how many events may wait in memory for a sink that fails or
    ///     cannot keep up. When that many wait, the recording ends: that event and every later
    ///     one are dropped and counted (``droppedEventCount``), even if the sink catches up, so
    ///     that what reaches the sink is an exact prefix (a trace with a gap would replay into
    ///     wrong findings) and memory stays bounded.
    public init(sink: any RecordingSink, durability: Durability = .batched(), clock: @escaping Clock = LifecycleRecorder.systemClock,
                maxPendingEvents: Int = 100_000) {
        self.maxPendingEvents = max(1, maxPendingEvents)
        destination = sink.destination
        self.sink = sink
        self.durability = durability
        self.clock = clock
        origin = clock()
        baseTime = sink.lastTime
        state = Locked(State(lastT: sink.lastTime))
        writer = Locked(sink)
    }

    deinit { try? close() }

    // MARK: One call per event kind

    /// Records a `launch`: the process started. Starts a new run.
    ///
    /// - Parameters:
    ///   - platform: the platform the app runs on.
    ///   - scenes: the app's scene declarations, in the order of its `body`.
    ///   - reason: `"user"`, `"background"`, `"prewarm"` (iOS prewarming), or another string.
    ///   - app: the app's name or bundle id.
    ///   - os: the OS version.
    ///   - build: the app's build.
    ///   - debugger: whether the app runs under a debugger (Xcode's Run); version 2.
    ///   - harness: the test runner that launched the app (`"xcuitest"`); version 2.
    ///   - activation: the macOS activation policy; version 2.
    ///   - process: the process that started; `nil` for the main app; version 2.
    public func launch(platform: Platform, scenes: [SceneDeclaration], reason: String? = nil, app: String? = nil, os: String? = nil, build: String? = nil,
                       debugger: Bool? = nil, harness: String? = nil, activation: ActivationPolicy? = nil, process: String? = nil) {
        record(.launch(LifecycleEvent.Launch(platform: platform, scenes: scenes, reason: reason, app: app, os: os, build: build,
                                    debugger: debugger, harness: harness, activation: activation)), process: process)
    }

    /// Records a clean `terminate`, and commits and syncs before returning.
    public func terminate(reason: String? = nil) { record(.terminate(reason: reason)) }

    /// Records a `kill` (trace format version 2): the process was ended from
    /// outside and who ended it is known, as when a test runner calls
    /// `XCUIApplication.terminate()`. Commits and syncs before returning.
    ///
    /// - Parameters:
    ///   - reason: `"user"`, `"harness"`, `"debugger"`, `"watchdog"`, `"jetsam"`, `"crash"`, or another string.
    ///   - signal: the signal number, if known (`9` for `SIGKILL`).
    ///   - by: who records the kill, such as the runner's name.
    ///   - process: the process that was killed; `nil` for the main app.
    public func kill(reason: String, signal: Int? = nil, by: String? = nil, process: String? = nil) {
        record(.kill(reason: reason, signal: signal, by: by), process: process)
    }

    /// Records that a window of `scene` appeared.
    public func open(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool? = nil) {
        record(.open(window: window, scene: scene, value: value, restored: restored))
    }

    /// Records that a window is gone.
    public func dismiss(window: WindowID, reason: String? = nil) { record(.dismiss(window: window, reason: reason)) }

    /// Records a `scenePhase` change of `window`, or of the app without one.
    /// A `.background` phase commits and syncs before returning.
    public func phase(_ phase: LifecyclePhase, window: WindowID? = nil) { record(.phase(phase, window: window)) }

    /// Records an app-delegate-adaptor or scene-delegate callback (`didFinishLaunching`, `sceneWillConnect`, …).
    public func delegate(_ callback: String, window: WindowID? = nil) { record(.delegate(callback: callback, window: window)) }

    /// Records a change of a state key.
    ///
    /// - Parameters:
    ///   - key: the key's name.
    ///   - scope: where the state lives.
    ///   - window: the window that wrote (required for ``StateScope/scene`` keys); `nil` for the app.
    ///   - base: the version the new value was computed from; `nil` for the writer's last-seen version.
    ///   - document: for a ``StateScope/document`` key, the document's
    ///     file URL or id; without it, the document the window presents.
    public func write(key: String, scope: StateScope, window: WindowID? = nil, base: UInt64? = nil, document: String? = nil) {
        record(.write(key: key, scope: scope, window: window, base: base, document: document))
    }

    /// Records a read of a state key.
    ///
    /// - Parameters:
    ///   - key: the key's name.
    ///   - scope: where the state lives.
    ///   - window: the window that read (required for ``StateScope/scene`` keys); `nil` for the app.
    ///   - version: the version read; `nil` for the current one.
    ///   - document: for a ``StateScope/document`` key, the document's
    ///     file URL or id; without it, the document the window presents.
    public func read(key: String, scope: StateScope, window: WindowID? = nil, version: UInt64? = nil, document: String? = nil) {
        record(.read(key: key, scope: scope, window: window, version: version, document: document))
    }

    /// Records that state was persisted.
    ///
    /// - Parameters:
    ///   - keys: the names of the keys saved; `nil` for every key.
    ///   - window: the window whose scene keys are saved; `nil` for every window.
    ///   - store: where it was saved (not interpreted).
    ///   - stage: `.begin` when a save that takes time starts, `.end` when it
    ///     finishes; `nil` for a save that is done when recorded.
    ///   - id: pairs a `.begin` with its `.end`.
    public func save(keys: [String]? = nil, window: WindowID? = nil, store: String? = nil, stage: SaveStage? = nil, id: String? = nil) {
        record(.save(keys: keys, window: window, store: store, stage: stage, id: id))
    }

    /// Records that work that should not run unseen started or stopped.
    public func activity(_ name: String, _ state: LifecycleActivityState, window: WindowID? = nil) {
        record(.activity(name: name, state: state, window: window))
    }

    /// Records a note from the test session.
    public func mark(_ label: String) { record(.mark(label: label)) }

    /// Records any event kind, with extra fields.
    ///
    /// - Parameters:
    ///   - kind: what happened.
    ///   - process: the process the event is about; `nil` for the main app.
    ///   - extraFields: members to keep with the event, exported as they are.
    public func record(_ kind: consuming LifecycleEvent.Kind, process: consuming String? = nil, extraFields: consuming [JSONMember] = []) {
        // A call whose event is not valid (a scene key without its window, …) is not recorded: the
        // trace stays what every reader accepts, whichever sink records it. It is reported instead.
        if !kind.isValid {
            reportMisuse(kind.validationProblem ?? "", of: LifecycleEvent(t: 0, kind).name)
            return
        }
        // The app is about to be suspended or to end: such an event is committed before returning.
        let urgentKind = Self.isUrgent(kind)
        let now = baseTime + max(0, clock() - origin)
        let next: NextStep
        let s = state.lockForHotPath()
        if s.pointee.closed {
            next = .closed
        } else if s.pointee.dropped > 0 || s.pointee.pending.count >= maxPendingEvents {
            // The sink failed or fell behind for a long while: the recording ends here, so that
            // what reaches the sink stays a prefix of what the app recorded, with no gap.
            s.pointee.dropped += 1
            next = .nothing
        } else {
            s.pointee.lastT = max(s.pointee.lastT, now)  // t never goes backwards, whatever the clock does
            // The kind, process and fields move into the buffer: no copy of their strings.
            // (The memberwise initializer: see LifecycleEvent.init(t:_:process:extraFields:).)
            s.pointee.pending.append(LifecycleEvent(t: s.pointee.lastT, process: process, kind: kind, extraFields: extraFields))
            next = Self.nextStep(after: &s.pointee, durability)
            if let held = s.pointee.held, urgentKind || s.pointee.pending.count - held.index > Self.maxEventsAfterHeldLaunch {
                // The app is about to end, or nothing decided in time: the fallback, now.
                Self.release(&s.pointee, reason: held.fallback, startsInBackground: held.fallback == "background")
            }
        }
        state.unlock()
        if next == .closed { return }
        if urgentKind || next == .commitNow {
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

    /// Records `launch` and holds it, with everything recorded after it, until
    /// ``decideHeldLaunch(reason:startsInBackground:)`` says why the process started (the glue
    /// learns it from what follows: `LaunchReasonDecision`). Its `reason` is `fallback` if the
    /// app ends, closes the recorder, or records ``maxEventsAfterHeldLaunch`` events first.
    package func recordHeldLaunch(_ launch: LifecycleEvent.Launch, fallback: String) {
        let now = baseTime + max(0, clock() - origin)
        state.withLock { s in
            // As ``record(_:process:extraFields:)`` appends, and held in the same step: no commit between.
            guard !s.closed else { return }
            guard s.dropped == 0, s.pending.count < maxPendingEvents else {
                s.dropped += 1
                return
            }
            s.lastT = max(s.lastT, now)
            var held = launch
            held.reason = fallback
            s.pending.append(LifecycleEvent(t: s.lastT, .launch(held)))
            s.held = HeldLaunch(index: s.pending.count - 1, fallback: fallback)
        }
    }

    /// Gives the held launch its `reason` (and an app-level `background` phase right after it,
    /// for a launch without UI) and lets it and what followed it go to the sink. Nothing when no
    /// launch is held (decided already, by its fallback).
    package func decideHeldLaunch(reason: String, startsInBackground: Bool) {
        let released = state.withLock { s -> Bool in
            guard s.held != nil else { return false }
            Self.release(&s, reason: reason, startsInBackground: startsInBackground)
            return true
        }
        if released { queue.async { [self] in try? commitPending() } }
    }

    private static func release(_ s: inout State, reason: String, startsInBackground: Bool) {
        guard let held = s.held else { return }
        s.held = nil
        guard held.index < s.pending.count, case .launch(var launch) = s.pending[held.index].kind else { return }
        launch.reason = reason
        let event = s.pending[held.index]
        s.pending[held.index] = LifecycleEvent(t: event.t, .launch(launch), process: event.process, extraFields: event.extraFields)
        if startsInBackground {
            s.pending.insert(LifecycleEvent(t: event.t, .phase(.background, window: nil), process: event.process), at: held.index + 1)
        }
    }

    /// Records why a call was not recorded: ``lastError``, the unified log, and ``misuseReporter``.
    @inline(never)
    private func reportMisuse(_ problem: String, of name: String) {
        let error = LifecycleLogError(.invalidInput,
            "a \(name) event was not recorded: \(problem). This is a misuse of the recorder's API: fix the call (spec/trace-format.md says what each event needs)",
            path: destination)
        state.withLock { $0.misuse = error }
        RecorderLog.report(error)
        Self.misuseReporter.withLock { $0 }?(error)
    }

    /// Called with every call the recorder refuses as a misuse (an event that is not valid), on the
    /// calling thread, after ``lastError`` says it. `LifecycleLogLive`'s
    /// `LifecycleRecorder.reportMisusesAsRuntimeIssues()` sets it to raise an Xcode runtime issue;
    /// `nil` (the default) only sets ``lastError`` and writes the unified log.
    package static let misuseReporter = Locked<(@Sendable (LifecycleLogError) -> Void)?>(nil)

    /// Sets the function called with every call the recorder refuses as a misuse (an event that is
    /// not valid, such as a `scene` key written without its window), besides ``lastError`` and the
    /// unified log. `LifecycleLogLive`'s `reportMisusesAsRuntimeIssues()` sets one that raises an
    /// Xcode runtime issue in DEBUG builds.
    public static func onMisuse(_ report: (@Sendable (LifecycleLogError) -> Void)?) {
        misuseReporter.withLock { $0 = report }
    }

    /// Sets where the recorder reports what it does not throw (a sink that failed, a collector out
    /// of reach, a spool moved to a new file, a misuse of its API), instead of the unified log;
    /// `nil` goes back to the unified log. `LifecycleLogLive`'s `LifecycleRecorder.log(to:)` sets a
    /// swift-log `Logger`. ``lastError`` says the same either way.
    public static func onReport(_ report: (@Sendable (LifecycleLogError) -> Void)?) {
        RecorderLog.handler.withLock { $0 = report }
    }

    /// Whether `kind` means the app is about to be suspended or to end.
    @inline(__always)
    private static func isUrgent(_ kind: borrowing LifecycleEvent.Kind) -> Bool {
        switch kind {
        case .terminate, .kill, .phase(.background, _): return true
        case .delegate(let callback, _): return callback == "willTerminate"
        default: return false
        }
    }

    /// What to do after appending an event, under the lock.
    @inline(__always)
    private static func nextStep(after s: inout State, _ durability: Durability) -> NextStep {
        guard case .batched(_, let maxEvents) = durability else { return .commitNow }
        if s.pending.count >= maxEvents, !s.commitQueued {
            s.commitQueued = true
            return .commitSoon
        }
        if s.flushScheduled { return .nothing }
        s.flushScheduled = true
        return .commitAfterDelay
    }

    private enum NextStep {
        case nothing, commitAfterDelay, commitSoon, commitNow, closed
    }

    /// Writes every event recorded so far to the sink, durably.
    ///
    /// - Throws: ``LifecycleLogError`` when the sink failed (for example the
    ///   disk is full); the events stay pending and the next flush retries them.
    public func flush() throws { try commitPending() }

    /// Flushes and closes the sink; later calls record nothing.
    ///
    /// - Throws: ``LifecycleLogError`` from the last flush (the sink is closed all the same).
    public func close() throws {
        state.withLock { s in
            if let held = s.held { Self.release(&s, reason: held.fallback, startsInBackground: held.fallback == "background") }
        }
        defer {
            state.withLock { $0.closed = true }
            writer.withLock { sink in
                sink?.close()
                sink = nil
            }
        }
        try commitPending()
    }

    /// The error of the last failed background commit, if any, or the problem
    /// the sink recovered from during the last commit (``RecordingSink/takeWarning()``:
    /// a spool moved to a new file, a collector unreachable); otherwise the last call that was
    /// not recorded because its event was not valid (`invalidInput`, naming the field and what to do).
    ///
    /// When events were dropped because ``droppedEventCount`` reached the limit, its message says
    /// how many.
    public var lastError: LifecycleLogError? {
        state.withLock { s in
            guard s.dropped > 0 else { return s.error ?? s.misuse }
            var error = s.error ?? LifecycleLogError(.io, "\(destination): the sink could not keep up", path: destination)
            error.message += " (\(plural(s.dropped, "event")) dropped after \(maxPendingEvents) waited in memory; the recording ends there."
                + " Raise maxPendingEvents, or record fewer events per second)"
            return error
        }
    }

    /// How many events were not recorded because the limit of events waiting in memory (the
    /// `maxPendingEvents` of the initializer) was reached, while the sink failed or could not
    /// keep up; counted from the first dropped event to the last call.
    public var droppedEventCount: Int { state.withLock { $0.dropped } }

    /// Appends what is pending in one transaction. Batches are taken inside
    /// the writer lock, so they land in the order they were recorded.
    private func commitPending() throws {
        try writer.withLock { writer in
            // Double buffering: the pending events are swapped out for the
            // buffer of the last commit, emptied, so neither is reallocated.
            var batch = state.withLock { s -> [LifecycleEvent] in
                s.flushScheduled = false
                s.commitQueued = false
                if s.held != nil { return [] }  // nothing leaves before the held launch is decided
                var taken = s.spare
                swap(&taken, &s.pending)
                s.spare = []
                return taken
            }
            guard let writer, !batch.isEmpty else { return }
            do {
                try writer.write(batch)
                batch.removeAll(keepingCapacity: true)
                let warning = writer.takeWarning()
                if let warning { RecorderLog.report(warning) }
                state.withLock { s in
                    s.error = warning
                    s.spare = batch
                }
            } catch {
                var failure: LifecycleLogError
                if let partial = error as? RecordingSinkPartialWrite {
                    // The first events are in the sink: only the rest wait for the next try.
                    batch.removeFirst(min(max(0, partial.written), batch.count))
                    failure = partial.error
                } else {
                    failure = error as? LifecycleLogError
                        ?? LifecycleLogError(.io, "\(destination): could not record: \(error)", path: destination)
                }
                let repeated = state.withLock { s in
                    s.pending.insert(contentsOf: batch, at: 0)  // keep them, in order, for the next try
                    let repeated = s.error.map { $0.code == failure.code && $0.path == failure.path && $0.lmdbStatus == failure.lmdbStatus } ?? false
                    s.error = failure
                    return repeated
                }
                // A sink that keeps failing the same way (a full disk) is logged once, not at every retry.
                if !repeated { RecorderLog.report(failure) }
                throw failure
            }
        }
    }
}
