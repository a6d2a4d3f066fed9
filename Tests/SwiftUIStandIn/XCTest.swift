// A stand-in for XCTest's UI-testing classes, so that Linux can type-check
// Sources/LifecycleLogXCUITest (scripts/check-swiftui-glue, with
// -D LIFECYCLELOG_GLUE_CHECK). Not a package target. It declares exactly what
// the glue uses, with the signatures and isolation of Apple's documentation
// (each `///` names its page; since Xcode 16.3 the classes are documented
// under XCUIAutomation, which XCTest re-exports). The bodies do nothing.

/// https://developer.apple.com/documentation/xcuiautomation/xcuielement
/// `@MainActor class XCUIElement`
@MainActor open class XCUIElement {
    public init() {}
}

/// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication
/// `@MainActor class XCUIApplication` (a subclass of `XCUIElement`)
@MainActor open class XCUIApplication: XCUIElement {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/init()
    public override init() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/launch()
    /// `func launch()`
    open func launch() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/terminate()
    /// `func terminate()`
    open func terminate() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/activate()
    /// `func activate()`
    open func activate() {}

    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/state-swift.property
    /// `var state: XCUIApplication.State { get }`
    open var state: XCUIApplication.State { .notRunning }

    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/state-swift.enum
    /// `enum State` (`unknown`, `notRunning`, `runningBackgroundSuspended`,
    /// `runningBackground`, `runningForeground`)
    public enum State: UInt, Sendable {
        case unknown = 0
        case notRunning = 1
        case runningBackgroundSuspended = 2
        case runningBackground = 3
        case runningForeground = 4
    }
}

/// https://developer.apple.com/documentation/xcuiautomation/xcuidevice
/// `@MainActor class XCUIDevice`
@MainActor open class XCUIDevice {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/shared
    /// `class var shared: XCUIDevice { get }`
    public class var shared: XCUIDevice { XCUIDevice() }
    init() {}

    /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/button
    /// `enum Button` (iOS; `home`, `volumeUp`, `volumeDown`, …)
    public enum Button: Int, Sendable {
        /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/button/home
        case home = 1
        /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/button/volumeup
        case volumeUp
        /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/button/volumedown
        case volumeDown
    }

    /// https://developer.apple.com/documentation/xcuiautomation/xcuidevice/press(_:)
    /// `func press(_ button: XCUIDevice.Button)`
    open func press(_ button: XCUIDevice.Button) {}
}

// What the README's UI-test recipe uses besides the glue (scripts/check-swiftui-glue type-checks it).

/// https://developer.apple.com/documentation/xctest/xctestcase
/// `class XCTestCase : XCTest`
open class XCTestCase {
    public init() {}
}

/// https://developer.apple.com/documentation/xcuiautomation/xcuielementquery
/// `@MainActor class XCUIElementQuery`
@MainActor open class XCUIElementQuery {
    public init() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielementquery/firstmatch
    /// `var firstMatch: XCUIElement { get }`
    open var firstMatch: XCUIElement { XCUIElement() }
}

extension XCUIElement {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielementtypequeryprovider/textviews
    /// `var textViews: XCUIElementQuery { get }` (of `XCUIElementTypeQueryProvider`, which `XCUIElement` adopts)
    public var textViews: XCUIElementQuery { XCUIElementQuery() }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/typetext(_:)
    /// `func typeText(_ text: String)`
    public func typeText(_ text: String) {}
}
