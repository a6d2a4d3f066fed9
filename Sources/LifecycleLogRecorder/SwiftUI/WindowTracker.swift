/// The decisions of the SwiftUI adapter, without SwiftUI: which of the
/// callbacks a scene's root view receives, and which of the system's
/// notifications about scenes and windows, are lifecycle events, and which are
/// repeats.
///
/// SwiftUI gives a window no "opened" or "closed" callback. What it gives is
/// noisy: the root view's `onAppear` and `onDisappear` run again when a tab
/// changes, a window is minimised, or an iPad scene goes to the background and
/// comes back; `scenePhase` can change before the first `onAppear`; every
/// window that observes the app-level phase reports the same change; and a root
/// view's state is released both when a scene is *disconnected* (which does not
/// close it) and when its identity changes (`.id(x)`, `if`/`else` branches).
/// The tracker turns those callbacks into the events of the trace format:
///
/// | callbacks | events |
/// |---|---|
/// | the first ``appear(window:scene:value:restored:instance:)`` of a window | `open` (with `restored: true` when the id came back from `@SceneStorage`), then the phase that arrived before it, if any |
/// | `appear` again, same view instance | nothing |
/// | `appear` of an open window by a new view instance | nothing: the root's identity changed, or the scene reconnected; after a ``disconnect(window:)``, `delegate` `sceneWillConnect` |
/// | `appear` of a window closed before (a Mac `Settings` or `Window` scene keeps its view across a close) | `open` again |
/// | `appear` of a new window presenting the value of a window whose view was released | `dismiss` of that window first: SwiftUI shows one window per value |
/// | `disappear`, in any phase | nothing: the window may come back |
/// | ``phase(_:window:)`` | `phase` with the window, only when it differs from that window's last one; nothing for a window closed since |
/// | ``phase(_:window:)`` before the window's first `appear` | held, and recorded right after its `open` |
/// | ``appPhase(_:)`` | `phase` without a window, only when it differs from the last app-level one |
/// | ``end(window:instance:)`` of a window the glue observes (``attach(window:session:)``) | nothing: its disconnection or close comes from the system's notification; a release without one is a new root identity |
/// | ``end(window:instance:)`` of a window not observed, where scenes disconnect (iOS, iPadOS, tvOS, visionOS) | `delegate` `sceneDidDisconnect`: the window stays open |
/// | ``end(window:instance:)`` of a window not observed, on macOS | `dismiss` (`closed`) |
/// | ``disconnect(window:)``: `UIScene.didDisconnectNotification` | `delegate` `sceneDidDisconnect` (once) |
/// | ``discard(sessions:)``: `application(_:didDiscardSceneSessions:)` | `dismiss` (`discarded`) of each of those sessions' windows |
/// | ``sessionsStillOpen(_:)``: `UIApplication.openSessions`, when the app comes to the foreground | `dismiss` (`discarded`) of each disconnected window whose session is no longer there |
/// | ``contradiction(check:message:window:)``: Apple's order contradicted spec/apple-order.md | `diagnostic`, once per check and run |
/// | ``close(window:)``: `NSWindow.willCloseNotification`, `dismissWindow` | `dismiss` (`closed`); on macOS the window's `NSWindow` stays attached for a reopen |
/// | ``attach(window:session:)`` before the window's first `appear` | held, and attached at its `open` |
///
/// **What closes a window.** Not `onDisappear`, not the background phase, and,
/// on iOS, iPadOS, tvOS and visionOS, not the release of the root view's state
/// either: UIKit disconnects background scenes to reclaim memory, and iPadOS and
/// visionOS do it routinely; the scene session lives on and reconnects with its
/// `@SceneStorage` when the user comes back. A disconnection is recorded as
/// what it is (`delegate` `sceneDidDisconnect`, which the rules read as a
/// callback, changing nothing: the window keeps its phase and its saved state).
/// The window is closed when its session is discarded: the user closed it in
/// the app switcher, or the system discarded it
/// (`application(_:didDiscardSceneSessions:)`, which the glue maps to windows by
/// their session). On macOS a window is closed by `NSWindow.willCloseNotification`;
/// `Settings` and `Window` scenes keep their root view (and its `@State`) across
/// a close and a reopen, so their reopening is an `appear` of a closed window.
///
/// The tracker is a value: feed it callbacks and record what it returns.
/// ``SceneRecorder`` does that for a ``LifecycleRecorder``, under a lock.
///
/// ```swift
/// var tracker = WindowTracker(platform: .iPadOS)
/// tracker.phase(.active, window: "w1")                  // [] (held)
/// tracker.appear(window: "w1", scene: "main", instance: 1)
/// // [.open(window: "w1", scene: "main"), .phase(.active, window: "w1")]
/// tracker.end(window: "w1", instance: 1)                 // [.delegate(callback: "sceneDidDisconnect", window: "w1")]
/// tracker.appear(window: "w1", scene: "main", instance: 2) // [.delegate(callback: "sceneWillConnect", window: "w1")]
/// tracker.attach(window: "w1", session: "S1")
/// tracker.discard(sessions: ["S1"])                      // [.dismiss(window: "w1", reason: "discarded")]
/// ```
public struct WindowTracker: Sendable, Hashable {
    /// What the tracker knows of one open window.
    public struct Window: Sendable, Hashable {
        /// The scene declaration the window belongs to.
        public var scene: String
        /// The value it presents, as recorded in its `open`.
        public var value: JSONValue?
        /// The view instance that shows it (the last one, once its state was released).
        public var instance: UInt64
        /// Whether its root view is on screen (between `appear` and `disappear`).
        public var isVisible: Bool
        /// Its own phase as last recorded; `nil` until one is.
        public var phase: LifecyclePhase?
        /// Whether SwiftUI released its root view's state and no new view showed it since.
        public var hasView: Bool = true
        /// Whether its scene is disconnected (recorded `sceneDidDisconnect`, not reconnected since).
        public var isDisconnected = false
        /// Its scene session (`UISceneSession.persistentIdentifier`), or an id standing for its
        /// `NSWindow` on macOS, once the glue found it: its close can then be observed.
        public var session: String?
    }

    /// Whether the platform disconnects scenes (iOS, iPadOS, tvOS, visionOS, watchOS, Mac Catalyst) or
    /// closes windows (macOS): what the release of a root view's state means.
    public let platform: Platform
    /// The open windows, by id.
    public private(set) var windows: [WindowID: Window] = [:]
    /// Phases that arrived before their window's first `appear`, by window id.
    public private(set) var heldPhases: [WindowID: LifecyclePhase] = [:]
    /// Sessions attached while their window was not open, by window id: the glue found the window's
    /// scene or `NSWindow` before its root view's `onAppear` (issue 29: either order happens), or a
    /// Mac window closed and kept its view and `NSWindow` for a reopen (`Settings`, `Window`), whose
    /// glue does not attach again (its view never moves to another window). Taken by the `open`.
    public private(set) var heldSessions: [WindowID: String] = [:]
    /// The app-level phase as last recorded; `nil` until one is.
    public private(set) var appPhase: LifecyclePhase?
    /// Windows closed in this run: a late phase of theirs opens nothing. At most one entry per window
    /// closed since the last ``reset()``.
    public private(set) var closed: Set<WindowID> = []

    /// The assumptions of spec/apple-order.md (their ids) that Apple's order contradicted in this
    /// run: each is recorded once per run (``contradiction(check:message:window:)``), so a system
    /// that breaks one over and over adds one event per run, not one per callback.
    public private(set) var contradicted: Set<String> = []

    /// A tracker with no windows, for an app on `platform` (the one this code runs on by default).
    public init(platform: Platform = .current) {
        self.platform = platform
    }

    /// Whether releasing a root view's state means a disconnection (`true`) rather than, possibly, a close.
    public var disconnectsScenes: Bool { platform != .macOS }

    /// The ids of the open windows, sorted.
    public var openWindows: [WindowID] { windows.keys.sorted() }

    /// A scene's root view appeared (`onAppear`).
    ///
    /// - Parameters:
    ///   - window: the window's id (kept in `@SceneStorage`).
    ///   - scene: the id of its scene declaration.
    ///   - value: what a `WindowGroup(for:)` window presents.
    ///   - restored: whether the id was found in `@SceneStorage` (the system
    ///     restored the scene) rather than made for a new window.
    ///   - instance: which view instance appeared; a new one for every view
    ///     whose state SwiftUI created anew.
    /// - Returns: `open` and any held phase the first time (after the `dismiss`
    ///   of a window whose view was released and that presented the same value);
    ///   nothing when the same instance reappears or a new instance shows an open
    ///   window; `sceneWillConnect` for a disconnected window.
    public mutating func appear(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool = false, instance: UInt64) -> [LifecycleEvent.Kind] {
        if var open = windows[window] {
            open.isVisible = true
            var events: [LifecycleEvent.Kind] = []
            if open.instance != instance || !open.hasView {
                // The same window, shown by a new view: its root's identity changed, or its scene reconnected.
                open.instance = instance
                open.hasView = true
                if open.isDisconnected {
                    open.isDisconnected = false
                    events.append(.delegate(callback: "sceneWillConnect", window: window))
                }
            }
            windows[window] = open
            return events
        }
        var events: [LifecycleEvent.Kind] = []
        if let value {
            // SwiftUI shows one window per value: one whose view was released is gone if another shows its value.
            for (id, other) in windows.sorted(by: { $0.key < $1.key }) where other.value == value && other.scene == scene && !other.hasView {
                events += dismiss(window: id, reason: "closed")
            }
        }
        closed.remove(window)
        var opened = Window(scene: scene, value: value, instance: instance, isVisible: true, phase: nil)
        opened.session = heldSessions.removeValue(forKey: window)
        events.append(.open(window: window, scene: scene, value: value, restored: restored ? true : nil))
        if let held = heldPhases.removeValue(forKey: window) {
            opened.phase = held
            events.append(.phase(held, window: window))
        }
        windows[window] = opened
        return events
    }

    /// A scene's root view disappeared (`onDisappear`). Records nothing: the
    /// window may appear again (see the type's discussion).
    public mutating func disappear(window: WindowID, instance: UInt64) -> [LifecycleEvent.Kind] {
        if windows[window]?.instance == instance { windows[window]?.isVisible = false }
        return []
    }

    /// A window's `scenePhase` (read inside the scene) is now `phase`.
    ///
    /// - Returns: a `phase` event when it differs from the window's last
    ///   recorded phase; nothing when it does not, when the window was closed
    ///   (a late phase of a closed window), or when the window has not appeared
    ///   yet (the phase is then held for its `open`).
    public mutating func phase(_ phase: LifecyclePhase, window: WindowID) -> [LifecycleEvent.Kind] {
        guard let open = windows[window] else {
            if !closed.contains(window) { heldPhases[window] = phase }
            return []
        }
        if open.phase == phase { return [] }
        windows[window]?.phase = phase
        return [.phase(phase, window: window)]
    }

    /// The app-level `scenePhase` (read in the `App`), or the application's own
    /// notifications (`didBecomeActive`, `willResignActive`, `didEnterBackground`,
    /// `willEnterForeground`), say the app is now `phase`; every window may
    /// report it, and only a change is recorded.
    public mutating func appPhase(_ phase: LifecyclePhase) -> [LifecycleEvent.Kind] {
        if appPhase == phase { return [] }
        appPhase = phase
        return [.phase(phase, window: nil)]
    }

    /// The view instance that showed `window` is gone: SwiftUI released its
    /// state (the scene was disconnected, the window closed, or the root's
    /// identity changed).
    ///
    /// - Returns: nothing when the glue observes the window (``attach(window:session:)``):
    ///   its disconnection or close comes from the system's notification, and a
    ///   release without one is a new root identity. Otherwise, where scenes
    ///   disconnect, `sceneDidDisconnect` (the window stays open), and on macOS
    ///   `dismiss` (`closed`). Nothing for an instance that was replaced or never appeared.
    public mutating func end(window: WindowID, instance: UInt64) -> [LifecycleEvent.Kind] {
        guard var open = windows[window] else {
            heldPhases[window] = nil
            return []
        }
        guard open.instance == instance, open.hasView else { return [] }
        open.hasView = false
        open.isVisible = false
        windows[window] = open
        // The glue observes this window's scene or NSWindow: its disconnection or close comes from there,
        // and a release without one is the root's identity changing.
        if open.session != nil { return [] }
        return disconnectsScenes ? disconnect(window: window) : dismiss(window: window, reason: "closed")
    }

    /// The window's scene was disconnected (`UIScene.didDisconnectNotification`,
    /// a scene delegate's `sceneDidDisconnect`): the system released it, its
    /// session lives on.
    ///
    /// - Returns: `delegate` `sceneDidDisconnect` once; nothing for a window that is not open.
    public mutating func disconnect(window: WindowID) -> [LifecycleEvent.Kind] {
        guard var open = windows[window], !open.isDisconnected else { return [] }
        open.isDisconnected = true
        windows[window] = open
        return [.delegate(callback: "sceneDidDisconnect", window: window)]
    }

    /// The glue found the window's scene session (iOS family) or its `NSWindow`
    /// (macOS, an id of the glue's choosing): ``discard(sessions:)`` and
    /// ``close(window:)`` can now name it, and on macOS its close comes from there.
    public mutating func attach(window: WindowID, session: String) {
        if windows[window] != nil {
            windows[window]?.session = session
        } else {
            heldSessions[window] = session  // before its first `appear`, or closed: for its `open`
        }
    }

    /// `application(_:didDiscardSceneSessions:)`: the user closed these scenes
    /// in the app switcher, or the system discarded them.
    ///
    /// - Returns: `dismiss` (`discarded`) of each open window of those sessions, in the order of their ids.
    public mutating func discard(sessions: Set<String>) -> [LifecycleEvent.Kind] {
        let ids = windows.filter { $0.value.session.map(sessions.contains) ?? false }.keys.sorted()
        return ids.flatMap { dismiss(window: $0, reason: "discarded") }
    }

    /// The persistent identifiers of the scene sessions the application still holds
    /// (`UIApplication.openSessions`, "the sessions that are currently active or archived by the
    /// system"): a disconnected window whose session is not among them was discarded, whether or
    /// not `application(_:didDiscardSceneSessions:)` reached the glue (spec/apple-order.md, W6:
    /// unverified, so the decision does not depend on it). The glue calls it when the app comes to
    /// the foreground and becomes active. Connected windows and windows with no session are left as
    /// they are.
    ///
    /// - Returns: `dismiss` (`discarded`) of each such window, in the order of their ids.
    public mutating func sessionsStillOpen(_ open: Set<String>) -> [LifecycleEvent.Kind] {
        let ids = windows.filter { $0.value.isDisconnected && $0.value.session.map { !open.contains($0) } ?? false }.keys.sorted()
        return ids.flatMap { dismiss(window: $0, reason: "discarded") }
    }

    /// Apple's order contradicted the assumption `check` of spec/apple-order.md (issue 29).
    ///
    /// - Returns: a `diagnostic` the first time in this run for `check`; nothing after.
    public mutating func contradiction(check: String, message: String, window: WindowID? = nil) -> [LifecycleEvent.Kind] {
        guard contradicted.insert(check).inserted else { return [] }
        return [.diagnostic(check: check, message: message, window: window)]
    }

    /// The window closed: `NSWindow.willCloseNotification` on macOS, or the app's `dismissWindow`.
    ///
    /// - Returns: `dismiss` (`closed`) if the window is open.
    public mutating func close(window: WindowID) -> [LifecycleEvent.Kind] {
        dismiss(window: window, reason: "closed")
    }

    /// The app knows the window is gone (`dismissWindow`, a scene delegate's
    /// session discarded, a Mac window's close).
    ///
    /// - Returns: `dismiss` if the window is open; nothing otherwise (a second
    ///   dismiss of one window records nothing).
    public mutating func dismiss(window: WindowID, reason: String? = nil) -> [LifecycleEvent.Kind] {
        heldPhases[window] = nil
        guard let gone = windows.removeValue(forKey: window) else { return [] }
        closed.insert(window)
        // A Mac window's close keeps its NSWindow and root view for a reopen (`Settings`, `Window`):
        // the reopened window is still observed. A discarded scene session is gone for good.
        if reason == "closed", !disconnectsScenes, let session = gone.session { heldSessions[window] = session }
        return [.dismiss(window: window, reason: reason)]
    }

    /// Forgets every window and phase: the process starts a new run.
    public mutating func reset() { self = WindowTracker(platform: platform) }

    /// A new window id: 128 random bits in the form of a UUID
    /// (`8-4-4-4-12` lower-case hex digits).
    public static func randomWindowID() -> WindowID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        let digits = hex(high, 16) + hex(low, 16)
        var id = ""
        for (offset, digit) in digits.enumerated() {
            if offset == 8 || offset == 12 || offset == 16 || offset == 20 { id.append("-") }
            id.append(digit)
        }
        return id
    }

    private static func hex(_ value: UInt64, _ width: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: width - text.count) + text
    }
}
