extension Rule {
    /// The catalogue's rules, in the catalogue's order (``custom(_:)`` rules are not among them).
    public static let allCases: [Rule] = RuleCatalogue.descriptions.map(\.rule)

    /// The catalogue rule whose id is `rawValue`; `nil` for any other string (an app's own rule is
    /// made with ``custom(_:)``, never found by id).
    public init?(rawValue: String) {
        guard let rule = Rule.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = rule
    }

    /// The severity the catalogue gives the rule (an app's own rule: ``Severity/error``; its
    /// ``LifecycleRule/severity`` is what it reports at).
    public var defaultSeverity: Severity {
        catalogueSeverity
    }

    /// Rules sort by their id, as findings at the same seq do.
    public static func < (a: Rule, b: Rule) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }

    /// A one-line summary of what the rule catches.
    public var summary: String {
        if case .custom(let id) = self { return "The app's own rule \(id)." }
        return RuleCatalogue.description(of: self)?.summary ?? ""
    }

    /// What to do about its findings, in one line (Markdown); `nil` for an app's own rule.
    public var fix: String? { RuleCatalogue.description(of: self)?.fix }

    /// How the rule describes itself (``RuleDescription``): `nil` for an app's own rule.
    public var catalogueDescription: RuleDescription? { RuleCatalogue.description(of: self) }
}
