/// A rule of the catalogue (spec/rules.md), or an app's own rule (``custom(_:)``).
///
/// Its ``rawValue`` is the id findings and reports name it by (`lost-update`); rules sort by it.
/// Each rule of the catalogue is a static property (``lostUpdate``, ``missedBackgroundSave``, …),
/// declared in the rule's own file, and describes itself (``catalogueDescription``).
///
/// `Rule` is a struct, not an enum, so that a new rule of the catalogue is a new static property,
/// not a new case: a `switch` over rules (with a `default:`) keeps compiling when the catalogue
/// grows. Compare with `==` or match with `case .lostUpdate:`.
public struct Rule: Sendable, Hashable, Comparable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The rule's id: `lost-update`, or an app rule's own.
    public let rawValue: String

    /// A rule of the catalogue, by its id (the rules' own files declare them).
    package init(catalogue id: String) {
        rawValue = id
    }

    /// The catalogue rule whose id is `rawValue`; `nil` for any other string (an app's own rule is
    /// made with ``custom(_:)``, never found by id).
    public init?(rawValue: String) {
        guard RuleCatalogue.description(ofID: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// A rule of an app's own (a ``LifecycleRule``), by its ``LifecycleRule/id``.
    public static func custom(_ id: String) -> Rule { Rule(catalogue: id) }

    /// The catalogue's rules, in the catalogue's order (``custom(_:)`` rules are not among them).
    public static let allCases: [Rule] = RuleCatalogue.descriptions.map(\.rule)

    /// Whether this is an app's own rule (``custom(_:)``), not one of the catalogue.
    public var isCustom: Bool { RuleCatalogue.description(ofID: rawValue) == nil }

    /// The severity the catalogue gives the rule (an app's own rule: ``Severity/error``; its
    /// ``LifecycleRule/severity`` is what it reports at).
    public var defaultSeverity: Severity {
        RuleCatalogue.defaultSeverity(ofID: rawValue) ?? .error
    }

    /// Rules sort by their id, as findings at the same seq do.
    public static func < (a: Rule, b: Rule) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }

    /// A one-line summary of what the rule catches.
    public var summary: String {
        guard let description = catalogueDescription else { return "The app's own rule \(rawValue)." }
        return description.summary
    }

    /// What to do about its findings, in one line (Markdown); `nil` for an app's own rule.
    public var fix: String? { catalogueDescription?.fix }

    /// How the rule describes itself (``RuleDescription``): `nil` for an app's own rule.
    public var catalogueDescription: RuleDescription? { RuleCatalogue.description(ofID: rawValue) }

    /// The id.
    public var description: String { rawValue }
}
