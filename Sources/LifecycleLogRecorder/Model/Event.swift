/// The id of one window (one scene instance), as the app names it.
public typealias WindowID = String

/// One lifecycle event of a trace: what happened (``kind``), when (``t``),
/// and any fields this version does not interpret (``extraFields``), which
/// are kept so that export gives back exactly what was imported.
///
/// ```swift
/// let event = Event(t: 5, .open(window: "w1", scene: "library"))
/// ```
public struct Event: Sendable, Hashable {
    /// Milliseconds since the trace began; never smaller than the previous event's.
    public var t: Double
    /// What happened.
    public var kind: Kind
    /// Fields this version does not interpret, in their original order.
    public var extraFields: [JSONMember]

    /// Creates an event.
    public init(t: Double, _ kind: Kind, extraFields: [JSONMember] = []) {
        self.t = t
        self.kind = kind
        self.extraFields = extraFields
    }

    /// What an event says happened. The cases are the event kinds of the
    /// trace format (`trace-format.md`), with their fields.
    public enum Kind: Sendable, Hashable {
        /// The process started (`App.init`, `didFinishLaunching`).
        case launch(Launch)
        /// The process is ending cleanly (`applicationWillTerminate`, or the app quit).
        case terminate(reason: String?)
        /// A window of `scene` appeared; `value` is what a `WindowGroup(for:)` presents.
        case open(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool? = nil)
        /// The window is gone.
        case dismiss(window: WindowID, reason: String? = nil)
        /// A window's `scenePhase` changed, or with no window, the app-level `scenePhase`.
        case phase(ScenePhase, window: WindowID? = nil)
        /// An app-delegate-adaptor or scene-delegate callback ran (name without the `application`/`scene` prefix).
        case delegate(callback: String, window: WindowID? = nil)
        /// The app changed a state key; `base` is the version the change was computed from.
        case write(key: String, scope: StateScope, window: WindowID? = nil, base: UInt64? = nil)
        /// The app read a key; `version` is the version it observed.
        case read(key: String, scope: StateScope, window: WindowID? = nil, version: UInt64? = nil)
        /// State was persisted; `keys` narrows what it covers.
        case save(keys: [String]? = nil, window: WindowID? = nil, store: String? = nil)
        /// Work that should not run unseen started or stopped.
        case activity(name: String, state: ActivityState, window: WindowID? = nil)
        /// A note from the test session.
        case mark(label: String)
        /// An event kind this version does not know; its fields are in ``Event/extraFields``.
        case unknown(name: String)
    }

    /// The fields of a `launch` event.
    public struct Launch: Sendable, Hashable {
        /// The platform the app runs on.
        public var platform: Platform
        /// The app's scene declarations, in body order.
        public var scenes: [SceneDeclaration]
        /// `"user"` (the default) or `"background"` (launched without UI).
        public var reason: String?
        /// The app's name or bundle id.
        public var app: String?
        /// The OS version.
        public var os: String?
        /// The app's build.
        public var build: String?

        /// Creates the fields of a launch.
        public init(platform: Platform, scenes: [SceneDeclaration], reason: String? = nil, app: String? = nil, os: String? = nil, build: String? = nil) {
            self.platform = platform
            self.scenes = scenes
            self.reason = reason
            self.app = app
            self.os = os
            self.build = build
        }

        /// Whether the app was launched without UI (`reason: "background"`).
        public var isBackgroundLaunch: Bool { reason == "background" }
    }

    /// The kind's name as written in the `event` field.
    public var name: String {
        switch kind {
        case .launch: return "launch"
        case .terminate: return "terminate"
        case .open: return "open"
        case .dismiss: return "dismiss"
        case .phase: return "phase"
        case .delegate: return "delegate"
        case .write: return "write"
        case .read: return "read"
        case .save: return "save"
        case .activity: return "activity"
        case .mark: return "mark"
        case .unknown(let name): return name
        }
    }

    /// The window the event names, if any.
    public var window: WindowID? {
        switch kind {
        case .open(let w, _, _, _), .dismiss(let w, _): return w
        case .phase(_, let w), .delegate(_, let w), .write(_, _, let w, _), .read(_, _, let w, _),
             .save(_, let w, _), .activity(_, _, let w):
            return w
        case .launch, .terminate, .mark, .unknown: return nil
        }
    }
}
