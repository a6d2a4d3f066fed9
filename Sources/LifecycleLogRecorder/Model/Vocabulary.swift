/// A SwiftUI `LifecyclePhase`: the phase of one window, or of the whole app.
public enum LifecyclePhase: String, Sendable, Hashable, CaseIterable {
    /// In the foreground and interactive.
    case active
    /// In the foreground but not receiving events (app switcher, a sheet from the system, launching).
    case inactive
    /// Not visible; the system may suspend or kill the app at any moment.
    case background
}

/// Where a piece of state lives, which decides who may lose it.
public enum StateScope: String, Sendable, Hashable, CaseIterable {
    /// Owned by one window, like a draft or `@SceneStorage`.
    case scene
    /// One value for the whole app, like `@AppStorage`.
    case app
    /// A model object that several windows read and write.
    case shared
    /// One value for every process of the app (trace format version 2): a key
    /// in an App Group store, such as `UserDefaults(suiteName: "group.…")`, a
    /// file in the shared container, or a SwiftData store there, which the
    /// app, its widgets and its extensions all read and write.
    case group
    /// A key of one document (trace format version 2), shared by every window
    /// that shows the document, as with `DocumentGroup`. The write or read
    /// names the document in its `document` field, or else the document is
    /// the one its window presents.
    case document
}

/// An app's activation policy on macOS (`NSApplication.ActivationPolicy`),
/// the `activation` field of a `launch` (trace format version 2).
public enum ActivationPolicy: String, Sendable, Hashable, CaseIterable {
    /// An ordinary app with a Dock icon and a menu bar (the default).
    case regular
    /// No Dock icon, but it can show windows: a `MenuBarExtra` app (`LSUIElement`).
    case accessory
    /// No Dock icon and no windows of its own: an agent or a helper.
    case prohibited
}

/// Where a save that takes time is (the `stage` field of a `save`, trace
/// format version 2).
public enum SaveStage: String, Sendable, Hashable, CaseIterable {
    /// The save started; the keys it covers are saved at the versions they
    /// have now, once the matching ``end`` arrives.
    case begin
    /// The save finished.
    case end
}

/// The platform a run was launched on.
public enum Platform: String, Sendable, Hashable, CaseIterable {
    /// iPhone.
    case iOS
    /// iPad (multiple windows, Stage Manager).
    case iPadOS
    /// A Mac app (AppKit life cycle: no phase change on quit).
    case macOS
    /// An iPad app running on the Mac.
    case macCatalyst
    /// Apple TV.
    case tvOS
    /// Apple Watch.
    case watchOS
    /// Apple Vision Pro (windows, volumes and immersive spaces).
    case visionOS
}

extension Platform {
    /// The platform this code was built for: `iPadOS` is not told apart from `iOS` here (an app
    /// that knows it runs on an iPad passes `.iPadOS` itself).
    public static var current: Platform {
        #if os(macOS)
        return .macOS
        #elseif os(tvOS)
        return .tvOS
        #elseif os(watchOS)
        return .watchOS
        #elseif os(visionOS)
        return .visionOS
        #elseif os(iOS) && targetEnvironment(macCatalyst)
        return .macCatalyst
        #else
        return .iOS
        #endif
    }
}

/// Whether an ``LifecycleEvent/Kind/activity(name:state:window:)`` started, stopped, or expired.
public enum LifecycleActivityState: String, Sendable, Hashable, CaseIterable {
    /// The work began.
    case start
    /// The work ended.
    case stop
    /// The system's expiration handler ran (trace format version 2): the
    /// handler of `beginBackgroundTask(expirationHandler:)`, called when the
    /// app's background time is up. It stops the activity.
    case expire
}

/// The kind of a scene declaration in an `App`'s `body`.
///
/// Known kinds have constants; other names (a scene type newer than this
/// version) are kept as they are.
public struct SceneKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The scene type's name, as in the trace (`"WindowGroup"`).
    public var rawValue: String
    /// A scene kind by name; any name is kept.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The scene type's name.
    public var description: String { rawValue }

    /// `WindowGroup`: any number of windows, optionally each presenting a value (`for:`).
    public static let windowGroup = SceneKind(rawValue: "WindowGroup")
    /// `Window`: a single, unique window (macOS, visionOS).
    public static let window = SceneKind(rawValue: "Window")
    /// `DocumentGroup`: a window per open document.
    public static let documentGroup = SceneKind(rawValue: "DocumentGroup")
    /// `Settings`: the app's settings window (macOS).
    public static let settings = SceneKind(rawValue: "Settings")
    /// `MenuBarExtra`: a menu bar item with its window (macOS).
    public static let menuBarExtra = SceneKind(rawValue: "MenuBarExtra")
    /// `ImmersiveSpace`: a full space (visionOS).
    public static let immersiveSpace = SceneKind(rawValue: "ImmersiveSpace")
}

/// One scene declaration of a `launch`: `WindowGroup(id: "note", for: Note.ID.self)`
/// is `SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID")`.
public struct SceneDeclaration: Sendable, Hashable {
    /// The scene's id, as passed to `openWindow(id:)`.
    public var id: String
    /// The scene type.
    public var kind: SceneKind
    /// The presented value's type name for `WindowGroup(for:)` (the JSON field `for`).
    public var presentedType: String?
    /// The scene's title, if recorded.
    public var title: String?
    /// Fields this version does not interpret, kept for export.
    public var extraFields: [JSONMember]

    /// Creates a scene declaration.
    public init(id: String, kind: SceneKind, presentedType: String? = nil, title: String? = nil, extraFields: [JSONMember] = []) {
        self.id = id
        self.kind = kind
        self.presentedType = presentedType
        self.title = title
        self.extraFields = extraFields
    }
}
