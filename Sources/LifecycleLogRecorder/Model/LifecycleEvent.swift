/// The id of one window (one scene instance), as the app names it.
public typealias WindowID = String

/// One lifecycle event of a trace: what happened (``kind``), when (``t``),
/// and any fields this version does not interpret (``extraFields``), which
/// are kept so that export gives back exactly what was imported.
///
/// ```swift
/// let event = LifecycleEvent(t: 5, .open(window: "w1", scene: "library"))
/// let widget = LifecycleEvent(t: 9, .phase(.active), process: "com.example.notes.widget")
/// ```
public struct LifecycleEvent: Sendable, Hashable {
    /// Milliseconds since the trace began; never smaller than the previous event's.
    public var t: Double
    /// The process the event is about (trace format version 2), such as
    /// `"com.example.notes.widget"` for a widget extension or
    /// `"com.example.notes.share"` for a share extension; `nil` is the main
    /// app process. Each process has its own runs, windows, phases and
    /// `scene`/`app`/`shared` keys; `group` keys (an App Group container) are
    /// shared by all of them.
    public var process: String?
    /// What happened.
    public var kind: Kind
    /// Fields this version does not interpret, in their original order.
    public var extraFields: [JSONMember]

    /// What an event says happened. The cases are the event kinds of the
    /// trace format (`trace-format.md`), with their fields.
    public enum Kind: Sendable, Hashable {
        /// The process started (`App.init`, `didFinishLaunching`).
        ///
        /// Stored indirectly: launches are rare, and every event is then as
        /// small as its other kinds need.
        indirect case launch(Launch)
        /// The process is ending cleanly (`applicationWillTerminate`, or the app quit).
        case terminate(reason: String?)
        /// The process was ended from outside, and who ended it is known
        /// (trace format version 2). It ends the run of the event's ``LifecycleEvent/process``.
        ///
        /// - `reason`: `"user"` (swiped away in the app switcher, Force Quit),
        ///   `"harness"` (XCUITest's `XCUIApplication.terminate()`, a test runner),
        ///   `"debugger"` (Xcode's Stop button), `"watchdog"`, `"jetsam"` (the
        ///   system reclaimed memory), `"crash"`, or any other string (kept as is).
        /// - `signal`: the signal number, if known (`9` for `SIGKILL`).
        /// - `by`: who recorded the kill, such as the test runner's name.
        case kill(reason: String, signal: Int? = nil, by: String? = nil)
        /// A window of `scene` appeared; `value` is what a `WindowGroup(for:)` presents.
        case open(window: WindowID, scene: String, value: JSONValue? = nil, restored: Bool? = nil)
        /// The window is gone.
        case dismiss(window: WindowID, reason: String? = nil)
        /// A window's `scenePhase` changed, or with no window, the app-level `scenePhase`.
        case phase(LifecyclePhase, window: WindowID? = nil)
        /// An app-delegate-adaptor or scene-delegate callback ran (name without the `application`/`scene` prefix).
        case delegate(callback: String, window: WindowID? = nil)
        /// The app changed a state key; `base` is the version the change was computed from.
        ///
        /// `document` (trace format version 2) names the document of a
        /// ``StateScope/document`` key: its file URL or id. Without it, the
        /// document is the one the writing window presents (its `open` value),
        /// as a `DocumentGroup` window does.
        case write(key: String, scope: StateScope, window: WindowID? = nil, base: UInt64? = nil, document: String? = nil)
        /// The app read a key; `version` is the version it observed.
        /// `document` is as for ``write(key:scope:window:base:document:)``.
        case read(key: String, scope: StateScope, window: WindowID? = nil, version: UInt64? = nil, document: String? = nil)
        /// State was persisted; `keys` narrows what it covers.
        ///
        /// A save that takes time (an async `ModelContext.save()`, a file
        /// coordinator write) is recorded twice (trace format version 2): with
        /// `stage: .begin` when it starts and `stage: .end` when it finishes,
        /// paired by `id` (or, without ids, the latest open begin of the same
        /// window and store). Without `stage` the save is instantaneous.
        case save(keys: [String]? = nil, window: WindowID? = nil, store: String? = nil, stage: SaveStage? = nil, id: String? = nil)
        /// Work that should not run unseen started or stopped.
        case activity(name: String, state: LifecycleActivityState, window: WindowID? = nil)
        /// A note from the test session.
        case mark(label: String)
        /// The recorder saw Apple's callbacks in an order, or with values, that contradict an
        /// assumption of `spec/apple-order.md` (issue 29): `check` is the assumption's id there
        /// (`"A2"`, `"W7"`), `message` what was seen, `window` the window concerned, if any. It
        /// changes no state; `replay` reports it as `unexpected-callback-order`, because what the
        /// run records near it may be wrong.
        ///
        /// Stored and read in traces of every version: an event `diagnostic` whose `check` and
        /// `message` are strings (and `window`, if present, a string) is one; any other event named
        /// `diagnostic` stays an unknown kind, as before (trace-format.md, section 5).
        case diagnostic(check: String, message: String, window: WindowID? = nil)
        /// An event kind this version does not know; its fields are in ``LifecycleEvent/extraFields``.
        case unknown(name: String)
    }

    /// The fields of a `launch` event.
    public struct Launch: Sendable, Hashable {
        /// The platform the app runs on.
        public var platform: Platform
        /// The app's scene declarations, in body order.
        public var scenes: [SceneDeclaration]
        /// Why the process started: `"user"` (the default), `"background"`
        /// (launched without UI: a background fetch, a push, a location
        /// update), or `"prewarm"` (written by recorders before issue 29 for a
        /// prewarmed process; the rules start such a run in the background).
        /// Other strings are kept. A prewarmed launch is now its real reason
        /// with ``prewarmed`` set.
        public var reason: String?
        /// The app's name or bundle id.
        public var app: String?
        /// The OS version.
        public var os: String?
        /// The app's build.
        public var build: String?
        /// Whether the app was launched under a debugger, as with Xcode's Run
        /// (trace format version 2). Xcode's Stop button ends such a run with
        /// no chance to record it.
        public var debugger: Bool?
        /// The test runner that launched the app, such as `"xcuitest"`
        /// (trace format version 2).
        public var harness: String?
        /// The app's activation policy on macOS (`NSApplication.ActivationPolicy`),
        /// trace format version 2; `nil` means ``ActivationPolicy/regular``.
        public var activation: ActivationPolicy?
        /// Whether the system prewarmed the process before this launch (trace format version 2,
        /// issue 29): iOS 15 and later may run an app's launch sequence ahead of time, "up until,
        /// but not including, when main() calls UIApplicationMain" (Apple, "About the app launch
        /// sequence"). A launch recorded from `application(_:didFinishLaunchingWithOptions:)` comes
        /// after the prewarm, where the app's own code starts: a fact of the launch, not a phase.
        public var prewarmed: Bool?

        /// Creates the fields of a launch.
        public init(platform: Platform, scenes: [SceneDeclaration], reason: String? = nil, app: String? = nil, os: String? = nil, build: String? = nil,
                    debugger: Bool? = nil, harness: String? = nil, activation: ActivationPolicy? = nil, prewarmed: Bool? = nil) {
            self.platform = platform
            self.scenes = scenes
            self.reason = reason
            self.app = app
            self.os = os
            self.build = build
            self.debugger = debugger
            self.harness = harness
            self.activation = activation
            self.prewarmed = prewarmed
        }

        /// Whether the app was launched without UI (`reason: "background"`).
        public var isBackgroundLaunch: Bool { reason == "background" }
        /// Whether the launch says `reason: "prewarm"` (recorders before issue 29): the rules start
        /// such a run in the background. Not ``prewarmed``, which changes nothing in the rules.
        public var isPrewarm: Bool { reason == "prewarm" }
    }

    /// The kind's name as written in the `event` field.
    public var name: String {
        switch kind {
        case .diagnostic: return "diagnostic"
        case .unknown(let name): return name
        default: return tag.name  // the stored format's table of kinds (EventTag)
        }
    }

    /// The window the event names, if any.
    public var window: WindowID? {
        switch kind {
        case .open(let w, _, _, _), .dismiss(let w, _): return w
        case .phase(_, let w), .delegate(_, let w), .write(_, _, let w, _, _), .read(_, _, let w, _, _),
             .save(_, let w, _, _, _), .activity(_, _, let w), .diagnostic(_, _, let w):
            return w
        case .launch, .terminate, .kill, .mark, .unknown: return nil
        }
    }
}

extension LifecycleEvent {
    /// Creates an event.
    ///
    /// - Parameters:
    ///   - t: milliseconds since the trace began.
    ///   - kind: what happened.
    ///   - process: the process the event is about; `nil` for the main app.
    ///   - extraFields: fields to keep without interpreting them.
    public init(t: Double, _ kind: Kind, process: String? = nil, extraFields: [JSONMember] = []) {
        // Through the memberwise initializer, which is why this one lives in an extension:
        // Swift 6.3 builds an event that an initializer assigns field by field in a
        // temporary, then copies it (retaining every string) and destroys the temporary.
        self.init(t: t, process: process, kind: kind, extraFields: extraFields)
    }
}

extension LifecycleEvent {
    /// The members that make an event named `diagnostic` a ``Kind/diagnostic(check:message:window:)``:
    /// `check` and `message` strings and, if present, a `window` string, found by name. Returns the
    /// kind and the other members in their order, or `nil` when they do not fit (the event then
    /// stays an unknown kind, as it was before the kind existed). The interchange reader and the
    /// stored format's reader both decide with it, so a trace reads the same either way.
    package static func diagnostic(from members: [JSONMember]) -> (kind: Kind, rest: [JSONMember])? {
        var check: String?
        var message: String?
        var window: String?
        var rest: [JSONMember] = []
        for member in members {
            switch member.name {
            case "check", "message", "window":
                guard case .string(let s) = member.value else { return nil }
                switch member.name {
                case "check": if check != nil { return nil } else { check = s }
                case "message": if message != nil { return nil } else { message = s }
                default: if window != nil { return nil } else { window = s }
                }
            default:
                rest.append(member)
            }
        }
        guard let check, let message else { return nil }
        return (.diagnostic(check: check, message: message, window: window), rest)
    }
}
