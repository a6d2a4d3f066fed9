#if canImport(SwiftUI)
import LifecycleLogRecorder
import SwiftUI

extension View {
    /// Records this scene's window: its `open` (once, `restored` when
    /// `@SceneStorage` gave its id back), its `scenePhase` changes, its
    /// `dismiss` when SwiftUI lets the window go, and, given `appPhase`, the
    /// app-level phase. Apply it to the root view of each scene.
    ///
    /// ```swift
    /// @main
    /// struct NotesApp: App {
    ///     @Environment(\.scenePhase) private var scenePhase
    ///     var body: some Scene {
    ///         WindowGroup(id: "library") {
    ///             LibraryView().lifecycleLog(recorder, scene: "library", appPhase: scenePhase)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// What the callbacks become is ``WindowTracker``'s decision: a repeated
    /// `onAppear`/`onDisappear` records nothing, a phase is recorded when it
    /// changes, and a window is dismissed when its root view's state is
    /// released (the scene disconnected, the window closed), never merely
    /// because it disappeared. The window's id lives in `@SceneStorage`
    /// under the key `LifecycleLog.window`. Child views reach the window
    /// through `EnvironmentValues/lifecycleLogWindow`.
    ///
    /// - Parameters:
    ///   - recorder: where the events go; every window of one recorder shares
    ///     one tracker (``SceneRecorder/shared(for:)``).
    ///   - scene: the id of the scene declaration, as in the `launch`.
    ///   - value: what a `WindowGroup(for:)` window presents, recorded with its `open`.
    ///   - appPhase: the `App`'s `@Environment(\.scenePhase)`, to record the
    ///     app-level phase; every window may pass it, each change is recorded once.
    public func lifecycleLog(_ recorder: LifecycleRecorder, scene: String, value: JSONValue? = nil, appPhase: SwiftUI.ScenePhase? = nil) -> some View {
        modifier(LifecycleLogWindowModifier(scenes: SceneRecorder.shared(for: recorder), scene: scene, value: value))
            .lifecycleLogAppPhase(recorder, appPhase)
    }

    /// Records this scene's window as ``lifecycleLog(_:scene:value:appPhase:)``
    /// does, with an `Encodable` presented value (a `WindowGroup(for:)`
    /// window's id) encoded as JSON; a value that cannot be encoded is left out.
    public func lifecycleLog<Value: Encodable>(_ recorder: LifecycleRecorder, scene: String, value: Value?, appPhase: SwiftUI.ScenePhase? = nil) -> some View {
        var json: JSONValue?
        if let value { json = JSONValue.encoding(value) }
        return lifecycleLog(recorder, scene: scene, value: json, appPhase: appPhase)
    }

    /// Records the app-level phase: pass the `App`'s `@Environment(\.scenePhase)`.
    /// Its value now and each change are recorded once, however many views report it.
    ///
    /// - Parameters:
    ///   - recorder: where the events go.
    ///   - phase: the `App`'s scene phase; `nil` records nothing.
    public func lifecycleLogAppPhase(_ recorder: LifecycleRecorder, _ phase: SwiftUI.ScenePhase?) -> some View {
        modifier(LifecycleLogAppPhaseModifier(scenes: SceneRecorder.shared(for: recorder), phase: phase))
    }
}

/// The modifier behind `View/lifecycleLog(_:scene:value:appPhase:)`:
/// reads the window's id from `@SceneStorage` and its phase from the
/// environment, and passes the root view's callbacks to a ``RecordedWindow``.
struct LifecycleLogWindowModifier: ViewModifier {
    private let scene: String
    private let value: JSONValue?
    @SceneStorage("LifecycleLog.window") private var storedID: String?
    @Environment(\.scenePhase) private var scenePhase
    /// One per view instance: SwiftUI keeps the first and releases it with
    /// the window's state, which records the window's `dismiss`.
    @State private var window: RecordedWindow

    /// Records the windows of `scene` through `scenes`.
    ///
    /// - Parameters:
    ///   - scenes: the tracker shared by the app's windows.
    ///   - scene: the id of the scene declaration.
    ///   - value: what the window presents, recorded with its `open`.
    init(scenes: SceneRecorder, scene: String, value: JSONValue? = nil) {
        self.scene = scene
        self.value = value
        _window = State(initialValue: RecordedWindow(scenes))
    }

    /// The content, with the window in the environment and its callbacks recorded.
    func body(content: Content) -> some View {
        let window = window
        // The id is fixed on first use: from @SceneStorage (restored) or new,
        // so that child views and a phase that comes first use the same one.
        window.resolveID(stored: storedID)
        return content
            .environment(\.lifecycleLogWindow, window)
            .onAppear {
                store(window.appear(scene: scene, value: value, stored: storedID))
                store(window.phase(LifecyclePhase(scenePhase), stored: storedID))
            }
            .onDisappear { window.disappear() }
            .modifier(LifecycleLogChange(of: scenePhase) { phase in
                store(window.phase(LifecyclePhase(phase), stored: storedID))
            })
            .modifier(LifecycleLogSystemWindow(window: window))
    }

    /// Keeps a new window's id in `@SceneStorage`, for restoration.
    private func store(_ id: WindowID) {
        if storedID != id { storedID = id }
    }
}

/// Puts the view that finds the system's scene or window behind the content, where there is one
/// (not on watchOS): its disconnection (iOS family) or close (macOS) reaches the tracker.
struct LifecycleLogSystemWindow: ViewModifier {
    let window: RecordedWindow

    func body(content: Content) -> some View {
        #if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit)
        content.background(alignment: .center) { LifecycleLogSceneObserver(window: window) }
        #else
        content
        #endif
    }
}

/// The modifier behind `View/lifecycleLogAppPhase(_:_:)`.
struct LifecycleLogAppPhaseModifier: ViewModifier {
    let scenes: SceneRecorder
    let phase: SwiftUI.ScenePhase?

    func body(content: Content) -> some View {
        let scenes = scenes
        let phase = phase
        return content
            .onAppear {
                if let phase { scenes.appPhase(LifecyclePhase(phase)) }
            }
            .modifier(LifecycleLogChange(of: phase) { phase in
                if let phase { scenes.appPhase(LifecyclePhase(phase)) }
            })
    }
}

/// `onChange(of:)` with the new value, in the form each system has: the
/// two-parameter `onChange(of:initial:_:)` from iOS 17, macOS 14, tvOS 17,
/// watchOS 10 and visionOS 1, and `onChange(of:perform:)` before.
struct LifecycleLogChange<Value: Equatable>: ViewModifier {
    let value: Value
    let action: (Value) -> Void

    init(of value: Value, _ action: @escaping (Value) -> Void) {
        self.value = value
        self.action = action
    }

    func body(content: Content) -> AnyView {
        let action = action
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) {
            return AnyView(content.onChange(of: value) { _, new in action(new) })
        } else {
            return AnyView(content.onChange(of: value, perform: action))
        }
    }
}

extension LifecyclePhase {
    /// The trace format's phase of a SwiftUI scene phase; a phase newer than
    /// this package is taken as `background`.
    public init(_ phase: SwiftUI.ScenePhase) {
        switch phase {
        case .active: self = .active
        case .inactive: self = .inactive
        case .background: self = .background
        @unknown default: self = .background
        }
    }
}
#endif
