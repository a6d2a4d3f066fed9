import LifecycleLogRules

/// An app's own rule for both halves of `AppRulesEverywhereTests`: fires when a second `inspector` window opens while one is open.
package struct InspectorOpensOnce: LifecycleRule {
    /// The rule's id: `inspector-opens-once`, or a bad one a test passes on purpose.
    package var id: String

    /// The rule, under `id`.
    package init(id: String = "inspector-opens-once") { self.id = id }

    /// Reports the opening of an `inspector` window while another is open.
    package mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
        guard case .windowOpened(_, scene: "inspector", _) = transition,
              context.state.windows.count(where: { $0.scene == "inspector" }) > 1 else { return }
        context.report("A second inspector window opened.")
    }

    /// What its findings are named: `Rule.custom("inspector-opens-once")`.
    package static let rule = Rule.custom("inspector-opens-once")

    /// A macOS run whose second `inspector` window (seq 5) opens while the first is open; the catalogue finds nothing in it.
    package static let trace = """
        {"t":0,"event":"launch","platform":"macOS","scenes":[{"id":"notes","kind":"WindowGroup"},{"id":"inspector","kind":"WindowGroup"}]}
        {"t":10,"event":"open","window":"n1","scene":"notes"}
        {"t":20,"event":"phase","window":"n1","phase":"active"}
        {"t":30,"event":"open","window":"i1","scene":"inspector"}
        {"t":40,"event":"open","window":"i2","scene":"inspector"}
        {"t":50,"event":"dismiss","window":"i2"}
        {"t":60,"event":"dismiss","window":"i1"}
        {"t":70,"event":"terminate"}

        """
}
