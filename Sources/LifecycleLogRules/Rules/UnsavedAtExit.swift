/// `unsaved-at-exit`: the process ended (terminate, willTerminate, a kill, or the next launch) with unsaved
/// keys, other than those whose background save was already missed (`missed-background-save` names them).
package struct UnsavedAtExit: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runEnded]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unsaved-at-exit-macos-quit", "rules/unsaved-at-exit-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition, model.dirtyCount > 0 else { return }
        let unsaved = model.dirtyKeys().subtracting(model.run.missedInBackground)
        guard !unsaved.isEmpty else { return }
        let how: String
        switch end.how {
        case .terminated: how = "The app terminated"
        case .willTerminate: how = "The app ended after applicationWillTerminate"
        case .killed(let kill): how = "The process was killed (reason \"\(model.names[kill.name])\")"
        case .unrecorded: how = "The process was killed (the next launch came with no terminate)"
        }
        findings.report(.unsavedAtExit, at: end.seq, related: model.lastWriteSeqs(unsaved), subject: model.subject(keys: unsaved),
                        "\(how) with unsaved \(model.list(unsaved)). Saving only on .background misses this: a quit on macOS sends no phase change and a kill can come while .inactive. Save when the scene phase becomes .inactive, on applicationWillTerminate, and after edits.")
    }
}

extension UnsavedAtExit: DescribedRule {
    /// `unsaved-at-exit` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unsavedAtExit, defaultSeverity: .error,
        summary: "The process ended (quit or killed) with unsaved state.",
        fix: "Save on `.inactive`, on `applicationWillTerminate`, and after edits: a quit sends no phase change.",
        anchor: "the run's end event (Readings 11)",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unsaved-at-exit`: The process ended (quit or killed) with unsaved state.
    public static let unsavedAtExit = Rule(catalogue: "unsaved-at-exit")
}
