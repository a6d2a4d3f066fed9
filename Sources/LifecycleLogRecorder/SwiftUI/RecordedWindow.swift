/// One view instance of a scene's root: what the SwiftUI glue keeps in
/// `@State`, so that it lives exactly as long as SwiftUI keeps the view's
/// state. Its deinitializer tells the tracker the view is gone for good
/// (``WindowTracker/end(window:instance:)``), which records the window's
/// `dismiss`.
///
/// The window id comes from `@SceneStorage`: the first call that passes
/// `stored` fixes it. An id found there means the system restored the scene
/// (`open` with `restored: true`); none means a new window, which gets a new id
/// for the glue to store.
///
/// An instance that is made but never used (SwiftUI evaluates a `@State`'s
/// initial value every time the view is created, and keeps only the first)
/// records nothing.
public final class RecordedWindow: Sendable {
    /// The scene recorder it reports to.
    public let scenes: SceneRecorder
    /// This view instance's number.
    public let instance: UInt64

    private struct State {
        var id: WindowID?
        var restored = false
        /// A session the glue attached before the id was known (its view found its window before
        /// `onAppear` or the first phase: issue 29, item 6), attached once the id is.
        var earlySession: String?
    }
    private let state = Locked(State())

    /// A new view instance of a window of `scenes`.
    public init(_ scenes: SceneRecorder) {
        self.scenes = scenes
        instance = scenes.nextInstance()
    }

    deinit {
        if let id = state.withLock({ $0.id }) {
            let instance = instance
            scenes.apply { $0.end(window: id, instance: instance) }
        }
    }

    /// The window's id, once known.
    public var id: WindowID? { state.withLock { $0.id } }

    /// Whether the id came from `@SceneStorage` (a restored scene).
    public var isRestored: Bool { state.withLock { $0.restored } }

    /// The window's id: on the first call, `stored` (the value in
    /// `@SceneStorage`; the window is then restored) or a new id when there is
    /// none; later calls return the same id whatever they pass.
    ///
    /// - Parameter stored: the id in the scene's `@SceneStorage`, if any.
    /// - Returns: the id, for the glue to store when `stored` was `nil`.
    @discardableResult
    public func resolveID(stored: WindowID?) -> WindowID {
        let (id, early) = state.withLock { s -> (WindowID, String?) in
            if let id = s.id { return (id, nil) }
            let id = stored ?? scenes.windowID()
            s.id = id
            s.restored = stored != nil
            defer { s.earlySession = nil }
            return (id, s.earlySession)
        }
        if let early { attach(session: early) }
        return id
    }

    /// The root view appeared (`onAppear`); records `open` the first time
    /// (``WindowTracker/appear(window:scene:value:restored:instance:)``).
    ///
    /// - Returns: the window's id, for the glue to store.
    @discardableResult
    public func appear(scene: String, value: JSONValue? = nil, stored: WindowID?) -> WindowID {
        let id = resolveID(stored: stored)
        let restored = isRestored
        let instance = instance
        scenes.launchEvidence(.sceneWillConnect)  // a window's view appears in a connected scene
        scenes.apply { $0.appear(window: id, scene: scene, value: value, restored: restored, instance: instance) }
        return id
    }

    /// The root view disappeared (`onDisappear`); records nothing.
    public func disappear() {
        guard let id else { return }
        let instance = instance
        scenes.apply { $0.disappear(window: id, instance: instance) }
    }

    /// The scene's own `scenePhase` is `phase`; recorded on a change, or held
    /// until the window's `open` when it comes first.
    ///
    /// - Returns: the window's id, for the glue to store.
    @discardableResult
    public func phase(_ phase: LifecyclePhase, stored: WindowID?) -> WindowID {
        let id = resolveID(stored: stored)
        scenes.apply { $0.phase(phase, window: id) }
        return id
    }

    /// The window is gone, as the app knows (`dismissWindow`); records `dismiss` once.
    public func dismiss(reason: String? = nil) {
        guard let id else { return }
        scenes.dismiss(window: id, reason: reason)
    }

    /// The window closed (`NSWindow.willCloseNotification`); records `dismiss` (`closed`) once
    /// (``WindowTracker/close(window:)``).
    public func close() {
        guard let id else {
            // Its view never appeared nor had a phase, and its window closes (W3, W7).
            scenes.reportContradiction(check: "W7", "a window closed (NSWindow.willCloseNotification) whose root view never appeared; it is not in the trace")
            return
        }
        var neverOpened = false
        scenes.apply { tracker in
            neverOpened = tracker.windows[id] == nil && !tracker.closed.contains(id)
            return tracker.close(window: id)
        }
        // A phase came (so the id is known) but no `onAppear` before the close (W1, W7).
        if neverOpened {
            scenes.reportContradiction(check: "W7", "window \(id) closed (NSWindow.willCloseNotification) before its root view's onAppear opened it; it is not in the trace", window: id)
        }
    }

    /// The window's scene was disconnected (`UIScene.didDisconnectNotification`); records
    /// `sceneDidDisconnect` once, and the window stays open (``WindowTracker/disconnect(window:)``).
    public func disconnect() {
        guard let id else { return }
        scenes.apply { $0.disconnect(window: id) }
    }

    /// The glue found the window's scene session (`UISceneSession.persistentIdentifier`) or, on
    /// macOS, its `NSWindow` (an id for it): its discard or close can be recorded
    /// (``WindowTracker/attach(window:session:)``).
    public func attach(session: String) {
        let id = state.withLock { s -> WindowID? in
            if s.id == nil { s.earlySession = session }  // for when the id is known
            return s.id
        }
        guard let id else { return }
        scenes.apply { tracker in
            tracker.attach(window: id, session: session)
            return []
        }
    }

    // MARK: State keys of this window

    /// Records a change of `key` by this window (``LifecycleRecorder/write(key:scope:window:base:document:)``).
    /// A `scene` key needs the window's id: before it is known, nothing is recorded.
    /// A `document` key names its document, or is the document this window's `open` value presents.
    public func write(key: String, scope: StateScope, base: UInt64? = nil, document: String? = nil) {
        guard let id = idFor(scope) else { return }
        scenes.recorder.write(key: key, scope: scope, window: id, base: base, document: document)
    }

    /// Records a read of `key` by this window (``LifecycleRecorder/read(key:scope:window:version:document:)``).
    public func read(key: String, scope: StateScope, version: UInt64? = nil, document: String? = nil) {
        guard let id = idFor(scope) else { return }
        scenes.recorder.read(key: key, scope: scope, window: id, version: version, document: document)
    }

    /// Records that this window's state was persisted (``LifecycleRecorder/save(keys:window:store:stage:id:)``).
    /// An asynchronous save records `stage` `.begin` and then `.end`, with one `id`.
    public func save(keys: [String]? = nil, store: String? = nil, stage: SaveStage? = nil, id saveID: String? = nil) {
        scenes.recorder.save(keys: keys, window: id, store: store, stage: stage, id: saveID)
    }

    /// Records that work of this window started or stopped (``LifecycleRecorder/activity(_:_:window:)``).
    public func activity(_ name: String, _ state: LifecycleActivityState) {
        scenes.recorder.activity(name, state, window: id)
    }

    /// The id to name in a key event: `nil` (record nothing) only for a
    /// `scene` key before the id is known; other scopes go without a window.
    private func idFor(_ scope: StateScope) -> WindowID?? {
        if let id { return .some(id) }
        return scope == .scene ? nil : .some(nil)
    }
}
