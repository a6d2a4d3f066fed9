/// `unsaved-dismiss`: a window was dismissed with unsaved scene keys, or, the last window showing
/// a document, with unsaved keys of that document.
package struct UnsavedDismiss: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.windowDismissed]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unsaved-dismiss", "rules/unsaved-dismiss-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .windowDismissed(let index) = transition, model.dirtyCount > 0 else { return }
        var unsaved = model.dirtySceneKeys(of: index)
        // Trace format 2: the last window showing a document takes its unsaved document keys along.
        for key in model.documentKeysLeft(byDismissing: index) where model.sharedKeys[key].state.isDirty {
            unsaved.append(model.sharedKeys[key].ref)
        }
        guard !unsaved.isEmpty else { return }
        findings.report(.unsavedDismiss, at: now.seq, related: model.lastWriteSeqs(unsaved), subject: model.subject(keys: unsaved, windows: [index]),
                        "Window \(model.names[model.openWindows[index].id]) was dismissed with unsaved \(model.list(unsaved)). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene.")
    }
}

extension UnsavedDismiss: DescribedRule {
    /// `unsaved-dismiss` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unsavedDismiss, defaultSeverity: .error,
        summary: "A window was dismissed with unsaved scene state.",
        fix: "Save a window's state in `onDisappear` or when its phase becomes `.inactive`.",
        anchor: "the `dismiss`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unsaved-dismiss`: A window was dismissed with unsaved scene state.
    public static let unsavedDismiss = Rule(catalogue: "unsaved-dismiss")
}
