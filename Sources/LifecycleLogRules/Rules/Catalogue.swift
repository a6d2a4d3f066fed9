/// The catalogue, listed once (`Rules/catalogue.list`, from which `scripts/generate-catalogue` writes
/// ``descriptions``, the `Rule` cases and `RuleSet`'s routing). ``Rule/allCases``, the rules'
/// severities, summaries and fixes, README.md's rule table, spec/rules.md section 2 and the
/// examples test are all read from it.
package enum RuleCatalogue {

    /// The description of the catalogue's `rule` (`nil` for an app's own rule).
    package static func description(of rule: Rule) -> RuleDescription? {
        descriptions.first { $0.rule == rule }
    }

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
