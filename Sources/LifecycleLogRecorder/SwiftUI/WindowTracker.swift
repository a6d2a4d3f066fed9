/// The decisions of the SwiftUI adapter, without SwiftUI: which of the
/// callbacks a scene's root view receives are lifecycle events, and which are
/// repeats.
///
/// SwiftUI gives a window no "opened" or "closed" callback. What it gives is
/// noisy: the root view's `onAppear` and `onDisappear` run again when a tab
/// changes, a window is minimised, or an iPad scene goes to the background and
/// comes back; `scenePhase` can change before the first `onAppear`; and every
/// window that observes the app-level phase reports the same change. The
/// tracker turns those callbacks into the events of the trace format:
///
/// | callbacks | events |
/// |---|---|
/// | the first ``appear(window:scene:value:restored:instance:)`` of a window | `open` (with `restored: true` when the id came back from `@SceneStorage`), then the phase that arrived before it, if any |
/// | `appear` again, same view instance | nothing |
/// | `disappear`, in any phase | nothing: the window may come back |
/// | ``phase(_:window:)`` | `phase` with the window, only when it differs from that window's last one |
/// | ``phase(_:window:)`` before the window's first `appear` | held, and recorded right after its `open` |
/// | ``appPhase(_:)`` | `phase` without a window, only when it differs from the last app-level one |
/// | ``end(window:instance:)``: the view instance is gone for good | `dismiss` |
/// | ``dismiss(window:reason:)``: the app says the window is gone | `dismiss` |
/// | `appear` of an open window by a new view instance | `dismiss` of the old one, then `open` of the new one |
///
/// **What closes a window.** Not `onDisappear`, and not `onDisappear` in the
/// `background` phase either: an iPad scene in the background, a minimised
/// Mac window and a tab switch all disappear and come back as the same window.
/// A window is gone when SwiftUI releases its root view's state, which it does
/// when the scene is disconnected (`sceneDidDisconnect`: closed in the app
/// switcher, discarded by the system) or the window is closed; the glue reports
/// that as ``end(window:instance:)`` from the deinitializer of an object it keeps
/// in `@State`. The app can also say so itself with ``dismiss(window:reason:)``.
/// A view instance is numbered by the glue, so a window whose scene was
/// discarded and later reconnected (a new instance with the same id from
/// `@SceneStorage`) is told apart from one that merely reappeared.
///
/// The tracker is a value: feed it callbacks and record what it returns.
/// ``SceneRecorder`` does that for a ``LifecycleRecorder``, under a lock.
///
/// ```swift
/// var tracker = WindowTracker()
/// tracker.phase(.active, window: "w1")                  // [] (held)
/// tracker.appear(window: "w1", scene: "main", instance: 1)
/// // [.open(window: "w1", scene: "main"), .phase(.active, window: "w1")]
/// tracker.disappear(window: "w1", instance: 1)           // []
/// tracker.appear(window: "w1", scene: "main", instance: 1) // []
/// tracker.end(window: "w1", instance: 1)                 // [.dismiss(window: "w1", reason: "closed")]
/// ```
public struct WindowTracker: Sendable, Hashable {
    /// What the tracker knows of one open window.
    public struct Window: Sendable, Hashable {
        /// The scene declaration the window belongs to.
        public var scene: String
        /// The value it presents, as recorded in its `open`.
        public var value: JSONValue?
        /// The view instance that opened it.
        public var instance: UInt64
        /// Whether its root view is on screen (between `appear` and `disappear`).
        public var isVisible: Bool
        /// Its own phase as last recorded; `nil` until one is.
        public var phase: LifecyclePhase?
    }

    /// The open windows, by id.
    public private(set) var windows: [WindowID: Window] = [:]
    /// Phases that arrived before their window's first `appear`, by window id.
    public private(set) var heldPhases: [WindowID: LifecyclePhase] = [:]
    /// The app-level phase as last recorded; `nil` until one is.
    public private(set) var appPhase: LifecyclePhase?

    /// A tracker with no windows.
    public init() {}

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
    /// - Returns: `open` and any held phase the first time; nothing when the
    ///   same instance reappears; `dismiss` then `open` for a new instance of
    ///   an open window.
    public mutating func appear(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool = false, instance: UInt64) -> [Event.Kind] {
        var events: [Event.Kind] = []
        if let open = windows[window] {
            if open.instance == instance {
                windows[window]?.isVisible = true
                return []
            }
            // A new view with the id of an open window: the scene was
            // discarded and reconnected, and the old view's end was not seen.
            windows[window] = nil
            events.append(.dismiss(window: window, reason: "discarded"))
        }
        var opened = Window(scene: scene, value: value, instance: instance, isVisible: true, phase: nil)
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
    public mutating func disappear(window: WindowID, instance: UInt64) -> [Event.Kind] {
        if windows[window]?.instance == instance { windows[window]?.isVisible = false }
        return []
    }

    /// A window's `scenePhase` (read inside the scene) is now `phase`.
    ///
    /// - Returns: a `phase` event when it differs from the window's last
    ///   recorded phase; nothing when it does not, or when the window has not
    ///   appeared yet (the phase is then held for its `open`).
    public mutating func phase(_ phase: LifecyclePhase, window: WindowID) -> [Event.Kind] {
        guard let open = windows[window] else {
            heldPhases[window] = phase
            return []
        }
        if open.phase == phase { return [] }
        windows[window]?.phase = phase
        return [.phase(phase, window: window)]
    }

    /// The app-level `scenePhase` (read in the `App`) is now `phase`; every
    /// window may report it, and only a change is recorded.
    public mutating func appPhase(_ phase: LifecyclePhase) -> [Event.Kind] {
        if appPhase == phase { return [] }
        appPhase = phase
        return [.phase(phase, window: nil)]
    }

    /// The view instance that showed `window` is gone for good: SwiftUI
    /// released its state (the scene was disconnected, or the window closed).
    ///
    /// - Returns: `dismiss` when that instance is the one that opened the
    ///   window; nothing for an instance that was replaced or never appeared.
    public mutating func end(window: WindowID, instance: UInt64) -> [Event.Kind] {
        guard let open = windows[window] else {
            heldPhases[window] = nil
            return []
        }
        guard open.instance == instance else { return [] }
        windows[window] = nil
        return [.dismiss(window: window, reason: "closed")]
    }

    /// The app knows the window is gone (`dismissWindow`, a scene delegate's
    /// `sceneDidDisconnect`, a Mac window's close).
    ///
    /// - Returns: `dismiss` if the window is open; nothing otherwise (a second
    ///   dismiss of one window records nothing).
    public mutating func dismiss(window: WindowID, reason: String? = nil) -> [Event.Kind] {
        heldPhases[window] = nil
        guard windows.removeValue(forKey: window) != nil else { return [] }
        return [.dismiss(window: window, reason: reason)]
    }

    /// Forgets every window and phase: the process starts a new run.
    public mutating func reset() { self = WindowTracker() }

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
