/// The catalogue: every rule of `Rules/` that conforms to `BuiltInRule`, found by the package's
/// `generate-catalogue` tool, which writes ``descriptions``, ``thresholds`` and the routing of
/// transitions to the rules (`Rules/generated/`). ``Rule/allCases``, the rules' severities,
/// summaries and fixes, README.md's rule table, spec/rules.md section 2 and the examples test are
/// all read from it.
package enum RuleCatalogue {

    /// The description of the catalogue's `rule` (`nil` for an app's own rule).
    package static func description(of rule: Rule) -> RuleDescription? {
        description(ofID: rule.rawValue)
    }

    /// The description of the catalogue rule whose id is `id` (`nil`: none is).
    package static func description(ofID id: String) -> RuleDescription? {
        byID[id].map { descriptions[$0] }
    }

    /// The default severity of the catalogue rule whose id is `id` (`nil`: none is). Asked at every
    /// finding: one lookup, with no copy of the rule's whole description.
    package static func defaultSeverity(ofID id: String) -> Severity? { severityByID[id] }

    private static let severityByID: [String: Severity] = Dictionary(uniqueKeysWithValues: descriptions.map { ($0.rule.rawValue, $0.defaultSeverity) })

    /// Each rule's position in ``descriptions``, by id.
    private static let byID: [String: Int] = Dictionary(uniqueKeysWithValues: descriptions.enumerated().map { ($1.rule.rawValue, $0) })

    /// README.md's rule table, between its `<!-- rules:begin -->` and `<!-- rules:end -->` lines.
    package static func readmeTable() -> String {
        var out = "| rule | severity | the fix, in one line |\n|---|---|---|\n"
        for d in descriptions {
            out += "| `\(d.rule.rawValue)` | \(d.defaultSeverity.rawValue)\(d.whatIf ? ", `--explore`" : "") | \(d.fix) |\n"
        }
        return out
    }

    /// spec/rules.md section 2's table, between its `<!-- rules:begin -->` and `<!-- rules:end -->` lines.
    package static func specTable() -> String {
        var out = "| rule | default severity | anchored at |\n|---|---|---|\n"
        for d in descriptions {
            out += "| `\(d.rule.rawValue)`\(d.since > 1 ? " *(v\(d.since))*" : "") | \(d.defaultSeverity.rawValue)\(d.whatIf ? ", only with `--explore`" : "") | \(d.anchor) |\n"
        }
        return out
    }
}
