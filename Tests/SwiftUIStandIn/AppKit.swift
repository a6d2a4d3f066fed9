// A stand-in for AppKit, so that Linux can type-check the AppKit branch of Sources/LifecycleLogSwiftUI
// (scripts/check-swiftui-glue). It declares exactly what the glue uses, with the signatures and
// isolation of Apple's documentation (each `///` names its page). The bodies do nothing.
@_exported import Foundation  // as Apple's does

/// https://developer.apple.com/documentation/appkit/nsresponder
/// `@MainActor class NSResponder : NSObject`
@MainActor open class NSResponder: NSObject {}

/// https://developer.apple.com/documentation/appkit/nsview
/// `@MainActor class NSView : NSResponder`
@MainActor open class NSView: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nsview/init(frame:)
    public init(frame frameRect: NSRect) {}
    /// https://developer.apple.com/documentation/appkit/nsview/init(coder:)
    public required init?(coder: NSCoder) {}
    /// https://developer.apple.com/documentation/appkit/nsview/viewdidmovetowindow()
    open func viewDidMoveToWindow() {}
    /// https://developer.apple.com/documentation/appkit/nsview/window
    open var window: NSWindow? { nil }
    /// https://developer.apple.com/documentation/appkit/nsview/ishidden
    open var isHidden: Bool = false
}

/// https://developer.apple.com/documentation/foundation/nsrect
public typealias NSRect = CGRect

/// https://developer.apple.com/documentation/appkit/nswindow
/// `@MainActor class NSWindow : NSResponder`
@MainActor open class NSWindow: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nswindow/windownumber
    open var windowNumber: Int { 0 }
    /// https://developer.apple.com/documentation/appkit/nswindow/willclosenotification
    nonisolated public static let willCloseNotification = NSNotification.Name("NSWindowWillCloseNotification")
}

/// https://developer.apple.com/documentation/appkit/nsapplicationdelegate
/// `@MainActor protocol NSApplicationDelegate : NSObjectProtocol` (every method optional)
@MainActor public protocol NSApplicationDelegate: NSObjectProtocol {}

/// https://developer.apple.com/documentation/appkit/nsapplication
/// `@MainActor class NSApplication : NSResponder`
@MainActor open class NSApplication: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nsapplication/shared
    public class var shared: NSApplication { NSApplication() }
    /// https://developer.apple.com/documentation/appkit/nsapplication/activationpolicy
    /// `enum ActivationPolicy : Int, @unchecked Sendable`
    public enum ActivationPolicy: Int, @unchecked Sendable {
        case regular, accessory, prohibited
    }
    /// https://developer.apple.com/documentation/appkit/nsapplication/setactivationpolicy(_:)
    /// `func setActivationPolicy(_ activationPolicy: NSApplication.ActivationPolicy) -> Bool`
    @discardableResult open func setActivationPolicy(_ activationPolicy: NSApplication.ActivationPolicy) -> Bool { true }
    /// https://developer.apple.com/documentation/appkit/nsapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name("NSApplicationDidBecomeActiveNotification")
    /// https://developer.apple.com/documentation/appkit/nsapplication/willresignactivenotification
    nonisolated public static let willResignActiveNotification = NSNotification.Name("NSApplicationWillResignActiveNotification")
    /// https://developer.apple.com/documentation/appkit/nsapplication/willterminatenotification
    nonisolated public static let willTerminateNotification = NSNotification.Name("NSApplicationWillTerminateNotification")
}
