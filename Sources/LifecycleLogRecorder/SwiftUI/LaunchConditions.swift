/// What the system says about a launch, where it says it: in the app delegate's
/// `application(_:didFinishLaunchingWithOptions:)` (iOS, iPadOS, tvOS, visionOS),
/// `applicationWillFinishLaunching(_:)` (macOS, before windows are restored) or
/// `applicationDidFinishLaunching()` (watchOS). Not `App.init`: there
/// `UIApplication.shared` does not exist yet, and iOS prewarming can run it
/// hours before the user opens the app.
///
/// ``SceneRecorder/launch(platform:scenes:conditions:app:os:build:debugger:harness:activation:)``
/// turns it into the `launch` event and the app-level phase the launch starts in:
///
/// | conditions | `launch` `reason` | then |
/// |---|---|---|
/// | `ActivePrewarm` is `1` in the environment | `prewarm` | app-level `phase` `background`, until the app becomes active |
/// | application state `background` (a silent push, a background fetch, a location event: no scene connects) | `background` | app-level `phase` `background` |
/// | otherwise | `user` | nothing: the app's notifications and the scenes' phases follow |
public struct LaunchConditions: Sendable, Hashable {
    /// `UIApplication.State` (`WKApplicationState` on watchOS) at the launch; `inactive` on macOS.
    public enum ApplicationState: String, Sendable, Hashable {
        /// In the foreground, receiving events.
        case active
        /// In the foreground, not receiving events: how a launch with UI starts.
        case inactive
        /// Not visible: launched for background work.
        case background
    }

    /// The application's state when its delegate heard of the launch.
    public var applicationState: ApplicationState
    /// Whether the process was prewarmed: `ProcessInfo.processInfo.environment["ActivePrewarm"] == "1"`.
    public var prewarmed: Bool

    /// The conditions of a launch.
    ///
    /// - Parameters:
    ///   - applicationState: the application's state at the launch.
    ///   - prewarmed: whether `ActivePrewarm` is `1` in the process's environment.
    public init(applicationState: ApplicationState, prewarmed: Bool = false) {
        self.applicationState = applicationState
        self.prewarmed = prewarmed
    }

    /// The conditions from the process's environment (`ActivePrewarm`) and the application's state.
    ///
    /// - Parameters:
    ///   - applicationState: the application's state at the launch.
    ///   - environment: the process's environment, such as `ProcessInfo.processInfo.environment`.
    public init(applicationState: ApplicationState, environment: [String: String]) {
        self.init(applicationState: applicationState, prewarmed: environment["ActivePrewarm"] == "1")
    }

    /// The `launch` event's `reason`: `prewarm`, `background` or `user`.
    public var reason: String {
        if prewarmed { return "prewarm" }
        return applicationState == .background ? "background" : "user"
    }

    /// The app-level phase the launch starts in, when it is not the foreground's: `background`
    /// for a prewarmed process and a background launch (no scene connects to say it).
    public var initialAppPhase: LifecyclePhase? {
        prewarmed || applicationState == .background ? .background : nil
    }
}

/// The application's own notifications about its state, which exist whether or
/// not a scene is connected (a background launch connects none):
/// `UIApplication`'s (iOS, iPadOS, tvOS, visionOS), `NSApplication`'s (macOS) and
/// `WKApplication`'s (watchOS). ``SceneRecorder/application(_:)`` records what each means.
public enum ApplicationNotification: String, Sendable, Hashable, CaseIterable {
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
    public var appPhase: LifecyclePhase? {
        switch self {
        case .didBecomeActive: return .active
        case .willResignActive, .willEnterForeground: return .inactive
        case .didEnterBackground: return .background
        case .willTerminate: return nil
        }
    }
}
