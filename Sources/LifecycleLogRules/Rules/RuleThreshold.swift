/// A number a rule of the catalogue judges by: the launch watchdog limit of `slow-launch`, the
/// window of `launch-crash-loop`. Each belongs to its rule, which declares it; a `--rules` file
/// sets it under `"thresholds"` by its ``id`` (spec/rules.md section 7), and
/// ``RuleConfiguration/subscript(threshold:)`` sets it in code.
public struct RuleThreshold: Sendable, Hashable {
    /// Its name in a `--rules` file: `slow-launch-ms`.
    public let id: String
    /// The rule that judges by it.
    public let rule: Rule
    /// Its value when nothing sets it, in milliseconds of `t`.
    public let defaultValue: Double

    /// A threshold of the catalogue (the rules' own files declare them).
    package init(id: String, rule: Rule, defaultValue: Double) {
        self.id = id
        self.rule = rule
        self.defaultValue = defaultValue
    }

    /// Every threshold of the catalogue, in catalogue order.
    public static var allCases: [RuleThreshold] { RuleCatalogue.thresholds }
}
