/// What the system says about a launch, where it says it: in the app delegate's
/// `application(_:didFinishLaunchingWithOptions:)` (iOS, iPadOS, tvOS, visionOS),
/// `applicationWillFinishLaunching(_:)` (macOS, before windows are restored) or
/// `applicationDidFinishLaunching()` (watchOS). Not `App.init`: there
/// `UIApplication.shared` does not exist yet, and iOS prewarming can run it
/// hours before the user opens the app.
///
/// ``SceneRecorder/launch(platform:scenes:conditions:app:os:build:debugger:harness:activation:)``
/// turns it into the `launch` event and the app-level phase the launch starts in. What decides
/// the `reason` is only what cannot be wrong (issue 29; spec/apple-order.md, A1–A4):
///
/// | conditions | `launch` `reason` | then |
/// |---|---|---|
/// | a launch option only a launch without UI has (`location`, `bluetoothCentrals`, `bluetoothPeripherals`, `newsstandDownloads`) | `background` | app-level `phase` `background` |
/// | a launch option only a launch with UI has (`url`, `shortcutItem`, `userActivityType`, …) | `user` | nothing: the app's notifications and the scenes' phases follow |
/// | application state `active` or `inactive` | `user` | as above |
/// | application state `background`, an app without scenes | `background` | app-level `phase` `background` |
/// | application state `background` in an app with scenes (every SwiftUI app): no scene is connected yet during `didFinishLaunching`, whatever launched it | decided by what follows (`LaunchReasonDecision`): a scene connecting or the app becoming active says `user`; background work, or the launch sequence ending with no scene, says `background` | as above |
///
/// Prewarming is not a reason: the system ran the launch sequence "up until, but not including,
/// when main() calls UIApplicationMain" (Apple, "About the app launch sequence"), so it is over
/// when the delegate hears of the launch. It is recorded as a fact (`prewarmed: true`), and the
/// run starts as its reason says.
public struct LaunchConditions: Sendable, Hashable {
    /// `UIApplication.State` (`WKApplicationState` on watchOS) at the launch; `inactive` on macOS.
    public enum ApplicationState: String, Sendable, Hashable {
        /// In the foreground, receiving events.
        case active
        /// In the foreground, not receiving events: how a launch with UI starts.
        case inactive
        /// Not visible: launched for background work, or, in an app with scenes, no scene connected yet.
        case background
    }

    /// The application's state when its delegate heard of the launch.
    public var applicationState: ApplicationState
    /// Whether the process was prewarmed: `ProcessInfo.processInfo.environment["ActivePrewarm"] == "1"`.
    public var prewarmed: Bool
    /// The raw values of the `UIApplication.LaunchOptionsKey`s the delegate was given.
    public var launchOptions: Set<String>
    /// Whether the app uses scenes (every SwiftUI `App` does): then no scene is connected while the
    /// delegate hears of the launch, and the application's state there says nothing about the reason.
    public var usesScenes: Bool

    /// The conditions of a launch.
    ///
    /// - Parameters:
    ///   - applicationState: the application's state at the launch.
    ///   - prewarmed: whether `ActivePrewarm` is `1` in the process's environment.
    ///   - launchOptions: the raw values of the launch options' keys.
    ///   - usesScenes: whether the app uses scenes (every SwiftUI app does).
    public init(applicationState: ApplicationState, prewarmed: Bool = false, launchOptions: Set<String> = [], usesScenes: Bool = true) {
        self.applicationState = applicationState
        self.prewarmed = prewarmed
        self.launchOptions = launchOptions
        self.usesScenes = usesScenes
    }

    /// The conditions from the process's environment (`ActivePrewarm`) and the application's state.
    ///
    /// - Parameters:
    ///   - applicationState: the application's state at the launch.
    ///   - environment: the process's environment, such as `ProcessInfo.processInfo.environment`.
    ///   - launchOptions: the raw values of the launch options' keys.
    ///   - usesScenes: whether the app uses scenes (every SwiftUI app does).
    public init(applicationState: ApplicationState, environment: [String: String], launchOptions: Set<String> = [], usesScenes: Bool = true) {
        self.init(applicationState: applicationState, prewarmed: environment["ActivePrewarm"] == "1", launchOptions: launchOptions, usesScenes: usesScenes)
    }

    /// Launch options only a launch without UI has (`UIApplication.LaunchOptionsKey`: the system
    /// relaunched the app for a location event, Bluetooth state restoration, a Newsstand download).
    public static let backgroundOnlyOptions: Set<String> = [
        "UIApplicationLaunchOptionsLocationKey", "UIApplicationLaunchOptionsBluetoothCentralsKey",
        "UIApplicationLaunchOptionsBluetoothPeripheralsKey", "UIApplicationLaunchOptionsNewsstandDownloadsKey",
    ]
    /// Launch options only a launch with UI has: a URL or another app opened it, a Home Screen
    /// quick action, a Handoff activity, a CloudKit share, a tapped local notification.
    /// (`remoteNotification` is in neither: a tapped notification and a silent push both bring it.)
    public static let userOnlyOptions: Set<String> = [
        "UIApplicationLaunchOptionsURLKey", "UIApplicationLaunchOptionsSourceApplicationKey",
        "UIApplicationLaunchOptionsShortcutItemKey", "UIApplicationLaunchOptionsUserActivityTypeKey",
        "UIApplicationLaunchOptionsUserActivityDictionaryKey", "UIApplicationLaunchOptionsCloudKitShareMetadataKey",
        "UIApplicationLaunchOptionsLocalNotificationKey",
    ]

    /// The `launch` event's `reason` when these conditions decide it (`user` or `background`);
    /// `nil` when only what follows can (an app with scenes, in the background, with no telling
    /// option): see `LaunchReasonDecision`.
    public var decidedReason: String? {
        if !launchOptions.isDisjoint(with: Self.backgroundOnlyOptions) { return "background" }
        if !launchOptions.isDisjoint(with: Self.userOnlyOptions) { return "user" }
        switch applicationState {
        case .active, .inactive: return "user"
        case .background: return usesScenes ? nil : "background"
        }
    }

    /// The `launch` event's `reason`: ``decidedReason``, or `background` until what follows decides.
    public var reason: String { decidedReason ?? "background" }

    /// The app-level phase the launch starts in, when it is not the foreground's: `background`
    /// for a launch without UI (no scene connects to say it). Not for a prewarmed process: its
    /// prewarm is over when the launch is recorded.
    public var initialAppPhase: LifecyclePhase? { reason == "background" ? .background : nil }
}

/// Why a process whose ``LaunchConditions`` do not decide it started, from what follows the
/// launch, in the order Apple documents (spec/apple-order.md): a scene connecting or the app
/// becoming active means a launch with UI; background work (a push, a fetch, a background URL
/// session) before any scene, or the launch sequence ending with none, means a launch without UI.
///
/// It also notices when Apple's order is not what it assumes: a launch decided `background`
/// because the launch sequence ended with no scene, whose scene then connects or becomes active
/// within ``atOnce`` seconds (``contradiction``). Later, it is the user opening the app that was
/// launched in the background, as Apple documents.
package struct LaunchReasonDecision: Sendable, Hashable {
    /// What happened after the launch.
    package enum Evidence: String, Sendable, Hashable {
        /// `UIScene.willConnectNotification`, or a window's first `onAppear`.
        case sceneWillConnect
        /// The app became active, or is entering the foreground.
        case foreground
        /// A callback of background work before any scene: a push, a background fetch, a
        /// background URL session's events, a background task.
        case backgroundWork
        /// The launch sequence is over (the main queue's first turn after `didFinishLaunching`).
        case launchSequenceEnded
    }

    /// The reason, once decided; `nil` until then.
    package private(set) var reason: String?
    /// When the launch sequence's end decided `background` (seconds, any monotonic clock).
    private var endedWithoutScene: Double?
    /// How soon after that a scene connecting contradicts it.
    package static let atOnce = 1.0
    /// What contradicted the assumption the decision rests on, once: a launch decided
    /// `background` whose scene then connected or became active.
    package private(set) var contradiction: String?

    /// A decision for a launch with `conditions` (decided at once when they decide it).
    package init(_ conditions: LaunchConditions) { reason = conditions.decidedReason }

    /// Takes `evidence` into account.
    ///
    /// - Returns: the reason when this evidence decides it; `nil` when it was decided before or
    ///   is still open.
    ///
    /// - Parameters:
    ///   - evidence: what happened.
    ///   - time: when, in seconds of a monotonic clock.
    package mutating func observe(_ evidence: Evidence, at time: Double) -> String? {
        guard reason != nil else {
            switch evidence {
            case .sceneWillConnect, .foreground: reason = "user"
            case .backgroundWork: reason = "background"
            case .launchSequenceEnded:
                reason = "background"
                endedWithoutScene = time
            }
            return reason
        }
        if let ended = endedWithoutScene, time - ended < Self.atOnce, contradiction == nil,
           evidence == .sceneWillConnect || evidence == .foreground {
            contradiction = "the launch was recorded as without UI (no scene had connected when the launch sequence ended), "
                + "then \(evidence == .sceneWillConnect ? "a scene connected" : "the app came to the foreground")"
        }
        return nil
    }
}

/// The application's own notifications about its state, which exist whether or
/// not a scene is connected (a background launch connects none):
/// `UIApplication`'s (iOS, iPadOS, tvOS, visionOS), `NSApplication`'s (macOS) and
/// `WKApplication`'s (watchOS). ``SceneRecorder/application(_:)`` records what each means.
package enum ApplicationNotification: String, Sendable, Hashable, CaseIterable {
    /// `didBecomeActiveNotification`: the app-level phase is `active`.
    case didBecomeActive
    /// `willResignActiveNotification`: the app-level phase is `inactive`.
    case willResignActive
    /// `didEnterBackgroundNotification`: the app-level phase is `background`.
    case didEnterBackground
    /// `willEnterForegroundNotification`: the app-level phase is `inactive` (on its way to `active`).
    case willEnterForeground
    /// `willTerminateNotification`: the run ends cleanly (`delegate` `willTerminate`, committed before returning).
    case willTerminate

    /// The app-level phase the notification means; `nil` for `willTerminate`.
    package var appPhase: LifecyclePhase? {
        switch self {
        case .didBecomeActive: return .active
        case .willResignActive, .willEnterForeground: return .inactive
        case .didEnterBackground: return .background
        case .willTerminate: return nil
        }
    }
}
