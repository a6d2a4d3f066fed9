// A stand-in for UIKit, so that Linux can type-check the UIKit branch of Sources/LifecycleLogSwiftUI
// (scripts/check-swiftui-glue). It declares exactly what the glue uses, with the signatures and
// isolation of Apple's documentation (each `///` names its page). The bodies do nothing.
@_exported import Foundation  // as Apple's does

/// https://developer.apple.com/documentation/uikit/uiresponder
/// `@MainActor class UIResponder : NSObject`
@MainActor open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiview
/// `@MainActor class UIView : UIResponder`
@MainActor open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) {}
    /// https://developer.apple.com/documentation/uikit/uiview/didmovetowindow()
    open func didMoveToWindow() {}
    /// https://developer.apple.com/documentation/uikit/uiview/window
    open var window: UIWindow? { nil }
    /// https://developer.apple.com/documentation/uikit/uiview/ishidden
    open var isHidden: Bool = false
    /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
    open var isUserInteractionEnabled: Bool = true
}

/// https://developer.apple.com/documentation/uikit/uiwindow
/// `@MainActor class UIWindow : UIView`
@MainActor open class UIWindow: UIView {
    /// https://developer.apple.com/documentation/uikit/uiwindow/windowscene
    open var windowScene: UIWindowScene? { nil }
}

/// https://developer.apple.com/documentation/uikit/uiscene
/// `@MainActor class UIScene : UIResponder` (iOS 13, tvOS 13, visionOS 1)
@MainActor open class UIScene: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiscene/session
    open var session: UISceneSession { UISceneSession() }
    /// https://developer.apple.com/documentation/uikit/uiscene/diddisconnectnotification
    /// `nonisolated class let didDisconnectNotification: NSNotification.Name`
    nonisolated public static let didDisconnectNotification = NSNotification.Name("UISceneDidDisconnectNotification")
    /// https://developer.apple.com/documentation/uikit/uiscene/willconnectnotification
    /// `nonisolated class let willConnectNotification: NSNotification.Name`
    nonisolated public static let willConnectNotification = NSNotification.Name("UISceneWillConnectNotification")
}

/// https://developer.apple.com/documentation/uikit/uiwindowscene
/// `@MainActor class UIWindowScene : UIScene`
@MainActor open class UIWindowScene: UIScene {}

/// https://developer.apple.com/documentation/uikit/uiscenesession
/// `@MainActor class UISceneSession : NSObject`
@MainActor open class UISceneSession: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscenesession/persistentidentifier
    open var persistentIdentifier: String { "" }
}

/// https://developer.apple.com/documentation/uikit/uiapplicationdelegate
/// `@MainActor protocol UIApplicationDelegate : NSObjectProtocol` (every method optional)
@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {}

/// https://developer.apple.com/documentation/uikit/uiapplication
/// `@MainActor class UIApplication : UIResponder`
@MainActor open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
    /// https://developer.apple.com/documentation/uikit/uiapplication/state
    /// `enum State : Int, @unchecked Sendable`
    public enum State: Int, @unchecked Sendable {
        case active, inactive, background
    }
    /// https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
    open var applicationState: UIApplication.State { .active }
    /// https://developer.apple.com/documentation/uikit/uiapplication/opensessions
    /// `@MainActor var openSessions: Set<UISceneSession> { get }` (iOS 13.0+)
    open var openSessions: Set<UISceneSession> { [] }
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willresignactivenotification
    nonisolated public static let willResignActiveNotification = NSNotification.Name("UIApplicationWillResignActiveNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name("UIApplicationDidEnterBackgroundNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification
    nonisolated public static let willEnterForegroundNotification = NSNotification.Name("UIApplicationWillEnterForegroundNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/willterminatenotification
    nonisolated public static let willTerminateNotification = NSNotification.Name("UIApplicationWillTerminateNotification")
}
