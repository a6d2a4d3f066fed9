import Dispatch
/// Records an app's windows and phases through a ``LifecycleRecorder``: one
/// ``WindowTracker`` shared by every window, behind a lock, whose events go
/// straight to the recorder.
///
/// The SwiftUI glue (`LifecycleLogSwiftUI`) uses it; anything else that sees
/// SwiftUI's callbacks (a UIKit scene delegate, a test) can call it too. It is
/// safe to call from any thread: the tracker decides and the recorder records
/// under one lock, so events are recorded in the order the callbacks ran.
///
/// ```swift
/// let scenes = SceneRecorder(recorder)
/// let window = scenes.newWindow()          // one per root view instance
/// let id = window.appear(scene: "main", stored: nil)
/// window.phase(.active, stored: id)
/// scenes.appPhase(.active)
/// ```
public final class SceneRecorder: Sendable {
    /// Where the events go.
    public let recorder: LifecycleRecorder
    private let state: Locked<WindowTracker>
    private let instances = Locked<UInt64>(0)
    private let makeWindowID: @Sendable () -> WindowID
    private static let registry = Locked<[ObjectIdentifier: SceneRecorder]>([:])
    /// Called with each event the scene recorder records, at the callback that caused it.
    private let observers = Locked<[@Sendable (LifecycleEvent.Kind) -> Void]>([])
    /// Why the current run's process started, while what follows its launch decides it.
    private let launchDecision = Locked<LaunchReasonDecision?>(nil)
    /// Called once per run when Apple's order contradicts what the recorder assumed (issue 29:
    /// `LaunchReasonDecision/contradiction`); `LifecycleLogLive` raises a runtime issue with it.
    /// Also written to the unified log.
    package static let assumptionReporter = Locked<(@Sendable (String) -> Void)?>(nil)

    /// A scene recorder that records into `recorder`.
    ///
    /// - Parameters:
    ///   - recorder: where the events go.
    ///   - platform: what releasing a root view's state means (``WindowTracker/platform``);
    ///     the platform this code runs on by default.
    ///   - makeWindowID: makes the id of a new window; random UUIDs by
    ///     default (inject a counter in tests).
    public init(_ recorder: LifecycleRecorder, platform: Platform = .current,
                makeWindowID: @escaping @Sendable () -> WindowID = WindowTracker.randomWindowID) {
        self.recorder = recorder
        self.makeWindowID = makeWindowID
        state = Locked(WindowTracker(platform: platform))
    }

    /// The scene recorder of `recorder`: the same one for every call with the
    /// same recorder, so that every window shares one tracker. It keeps the
    /// recorder alive for the life of the process, as apps do.
    public static func shared(for recorder: LifecycleRecorder) -> SceneRecorder {
        registry.withLock { registry in
            let key = ObjectIdentifier(recorder)
            if let existing = registry[key] { return existing }
            let created = SceneRecorder(recorder)
            registry[key] = created
            return created
        }
    }

    /// The tracker's state now (a copy).
    public var tracker: WindowTracker { state.withLock { $0 } }

    /// Starts tracking one view instance of a scene's root; see ``RecordedWindow``.
    public func newWindow() -> RecordedWindow { RecordedWindow(self) }

    /// A new window id, from `makeWindowID`.
    func windowID() -> WindowID { makeWindowID() }

    /// A new view instance number.
    func nextInstance() -> UInt64 {
        instances.withLock { n in
            n += 1
            return n
        }
    }

    /// Runs `decide` on the tracker and records what it returns, under the
    /// tracker's lock so that events keep the callbacks' order.
    func apply(_ decide: (inout WindowTracker) -> [LifecycleEvent.Kind]) {
        state.withLock { tracker in
            let kinds = decide(&tracker)
            guard !kinds.isEmpty else { return }
            let observers = observers.withLock { $0 }
            for kind in kinds {
                for observer in observers { observer(kind) }
                recorder.record(kind)
            }
        }
    }

    /// Calls `observer` with each event this scene recorder records from now on, on the thread of
    /// the callback that caused it and in order (under the tracker's lock: keep it short).
    /// `LifecycleLogLive`'s signposts use it, so that a phase's interval starts when SwiftUI said so,
    /// not when its batch is committed.
    public func observe(_ observer: @escaping @Sendable (LifecycleEvent.Kind) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// The app-level `scenePhase` (read in the `App`) is `phase`; only a
    /// change is recorded (``WindowTracker/appPhase(_:)``).
    public func appPhase(_ phase: LifecyclePhase) {
        if phase != .background { launchEvidence(.foreground) }
        apply { $0.appPhase(phase) }
    }

    /// The app knows `window` is gone; records `dismiss` if it is open
    /// (``WindowTracker/dismiss(window:reason:)``).
    public func dismiss(window: WindowID, reason: String? = nil) {
        apply { $0.dismiss(window: window, reason: reason) }
    }

    /// `application(_:didDiscardSceneSessions:)`: records the `dismiss` of the windows of these
    /// sessions (their `UISceneSession.persistentIdentifier`s), which the glue attached
    /// (``WindowTracker/discard(sessions:)``). Call it from the app delegate adaptor.
    public func discard(sessions: Set<String>) { apply { $0.discard(sessions: sessions) } }

    /// Records the process's `launch` with the reason its ``LaunchConditions`` give, starts a new
    /// run of the tracker (no windows, no phases), and records the app-level phase a launch
    /// without UI starts in. Call it from the app delegate adaptor, where the system says how the
    /// app was launched (see ``LaunchConditions``), not from `App.init`.
    ///
    /// - Parameters:
    ///   - platform: the platform the app runs on.
    ///   - scenes: the app's scene declarations, in the order of its `body`.
    ///   - conditions: the application's state and whether it was prewarmed.
    ///   - app: the app's name or bundle id.
    ///   - os: the OS version.
    ///   - build: the app's build.
    ///   - debugger: whether a debugger is attached.
    ///   - harness: the test runner that launched the app.
    ///   - activation: the macOS activation policy.
    public func launch(platform: Platform, scenes: [SceneDeclaration], conditions: LaunchConditions, app: String? = nil, os: String? = nil,
                       build: String? = nil, debugger: Bool? = nil, harness: String? = nil, activation: ActivationPolicy? = nil) {
        let decision = LaunchReasonDecision(conditions)
        launchDecision.withLock { $0 = decision }
        let launch = LifecycleEvent.Launch(platform: platform, scenes: scenes, reason: conditions.reason, app: app, os: os, build: build,
                                  debugger: debugger, harness: harness, activation: activation, prewarmed: conditions.prewarmed ? true : nil)
        guard decision.reason == nil else {
            apply { tracker in
                tracker.reset()
                return [.launch(launch)] + (conditions.initialAppPhase.map { tracker.appPhase($0) } ?? [])
            }
            return
        }
        // Not decided: the launch is held, with what follows, until what follows says why the
        // process started (``launchEvidence(_:)``). Its fallback is a launch without UI.
        state.withLock { tracker in
            tracker.reset()
            for observer in observers.withLock({ $0 }) { observer(.launch(launch)) }
            recorder.recordHeldLaunch(launch, fallback: "background")
        }
    }

    /// What followed the launch (issue 29): decides a launch its conditions did not, and checks a
    /// decided one against Apple's documented order. The glue calls it with
    /// `UIScene.willConnectNotification` and, on the main queue's first turn after
    /// `didFinishLaunching`, with `LaunchReasonDecision/Evidence/launchSequenceEnded`; a
    /// window's first `onAppear` and the app's notifications count by themselves.
    package func launchEvidence(_ evidence: LaunchReasonDecision.Evidence) {
        let (decided, contradiction) = launchDecision.withLock { decision -> (String?, String?) in
            guard decision != nil else { return (nil, nil) }
            let before = decision?.contradiction
            let decided = decision?.observe(evidence, at: Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
            let now = decision?.contradiction
            return (decided, now != before ? now : nil)
        }
        if let decided {
            state.withLock { tracker in
                if decided == "background" { _ = tracker.appPhase(.background) }  // the phase the launch starts in
                recorder.decideHeldLaunch(reason: decided, startsInBackground: decided == "background")
            }
        }
        if let contradiction {
            reportContradiction(check: "A2", "\(contradiction). The launch's reason in this run's trace may be wrong")
        }
    }

    /// Reports that Apple's order differed from the assumption `check` of spec/apple-order.md: in
    /// the trace, as a `diagnostic` event (once per check and run:
    /// ``WindowTracker/contradiction(check:message:window:)``), which `replay` reports as
    /// `unexpected-callback-order`; in the unified log; and to ``assumptionReporter``.
    func reportContradiction(check: String, _ what: String, window: WindowID? = nil) {
        var first = false
        apply { tracker in
            let kinds = tracker.contradiction(check: check, message: what, window: window)
            first = !kinds.isEmpty
            return kinds
        }
        guard first else { return }
        let message = "LifecycleLog: Apple's order differed from what the recorder assumes (spec/apple-order.md, \(check)): \(what); please report it with the OS version."
        RecorderLog.note(message)
        Self.assumptionReporter.withLock { $0 }?(message)
    }

    /// The persistent identifiers of the sessions the application still holds
    /// (`UIApplication.openSessions`): records the `dismiss` (`discarded`) of each disconnected
    /// window whose session is gone (``WindowTracker/sessionsStillOpen(_:)``).
    public func sessionsStillOpen(_ sessions: Set<String>) {
        apply { $0.sessionsStillOpen(sessions) }
    }

    /// The application's own notification: records the app-level phase it means, once per change
    /// (shared with the `App`'s `scenePhase`: ``appPhase(_:)``), or, for `willTerminate`, the
    /// `delegate` `willTerminate` callback (the run's clean end, committed before returning).
    package func application(_ notification: ApplicationNotification) {
        if let phase = notification.appPhase {
            appPhase(phase)
        } else {
            apply { _ in [.delegate(callback: "willTerminate", window: nil)] }
        }
    }

    /// Forgets every window and phase (a new run, after a `launch`).
    public func reset() { state.withLock { $0.reset() } }
}
