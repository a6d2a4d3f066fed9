/// What a rule of the catalogue is, said once, by the rule's own type (`DescribedRule`): its id,
/// default severity, a one-line summary, the fix in one line, the event its findings are anchored
/// at, and examples that must fire and must not. `Rule`'s ``Rule/allCases``,
/// ``Rule/defaultSeverity``, ``Rule/summary`` and ``Rule/fix``, README.md's rule table and
/// spec/rules.md's "rules at a glance" come from these; a test replays every example.
public struct RuleDescription: Sendable {
    /// The rule.
    public let rule: Rule
    /// Its severity unless a `--rules` file says otherwise.
    public let defaultSeverity: Severity
    /// What it flags, in one sentence.
    public let summary: String
    /// What to do about it, in one line (Markdown).
    public let fix: String
    /// The event its findings are anchored at (Markdown).
    public let anchor: String
    /// Whether it is a what-if rule, run only with `--explore` (`kill-exposure`).
    public let whatIf: Bool
    /// The catalogue version that added it (1 for the first catalogue).
    public let since: Int
    /// JSON Lines traces on which it must fire.
    public let fires: [String]
    /// JSON Lines traces on which it must not fire.
    public let quiet: [String]

    /// A description; see each property.
    public init(rule: Rule, defaultSeverity: Severity, summary: String, fix: String, anchor: String, whatIf: Bool = false,
                since: Int = 1, fires: [String], quiet: [String]) {
        self.rule = rule
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.fix = fix
        self.anchor = anchor
        self.whatIf = whatIf
        self.since = since
        self.fires = fires
        self.quiet = quiet
    }
}

/// A rule of the catalogue that describes itself (``RuleDescription``).
package protocol DescribedRule {
    /// The rule's description.
    static var description: RuleDescription { get }
}
