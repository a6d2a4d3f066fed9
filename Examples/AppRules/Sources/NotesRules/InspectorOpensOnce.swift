import LifecycleLogRules

/// The Notes app shows one inspector: a second inspector window means `openWindow(id: "inspector")`
/// was called where `Window` (a single window) was meant, or a restored inspector was not
/// dismissed before opening a new one.
public struct InspectorOpensOnce: LifecycleRule {
    public let id = "inspector-opens-once"

    public init() {}

    public mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
        guard case .windowOpened(let window, scene: "inspector", _) = transition else { return }
        let open = context.state.windows.filter { $0.scene == "inspector" }
        guard open.count > 1 else { return }
        context.report("A second inspector window (\(window)) opened while \(open.count - 1) was open. Declare the inspector as a Window scene, or bring the open one forward instead of calling openWindow again.")
    }
}
