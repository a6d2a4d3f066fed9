/// The catalogue, listed once: every built-in rule's type, in catalogue order (spec/rules.md).
/// ``Rule/allCases``, the rules' severities, summaries and fixes, README.md's rule table, spec/rules.md
/// section 2 and the examples test are all read from this list.
package enum RuleCatalogue {
    /// Every rule's description, in catalogue order.
    package static let descriptions: [RuleDescription] = [
        MissedBackgroundSave.description,
        UnsavedDismiss.description,
        UnsavedAtExit.description,
        UnfinishedSave.description,
        LostUpdate.description,
        DuplicateWindow.description,
        UndeclaredScene.description,
        UnknownWindow.description,
        EventBeforeLaunch.description,
        UnsupportedScene.description,
        PhaseSkip.description,
        UncleanExit.description,
        SlowLaunch.description,
        LaunchCrashLoop.description,
        ActivityInBackground.description,
        AppPhaseMismatch.description,
        SceneStorageLost.description,
        UnknownEvent.description,
        KillExposure.description,
    ]

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
