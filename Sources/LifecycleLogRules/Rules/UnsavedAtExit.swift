/// `unsaved-at-exit`: the process ended (terminate, willTerminate, a kill, or the next launch) with unsaved
/// keys, other than those whose background save was already missed (`missed-background-save` names them).
package struct UnsavedAtExit: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/unsaved-at-exit-macos-quit.jsonl` and `traces/rules/unsaved-at-exit-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unsavedAtExit, defaultSeverity: .error,
        summary: "The process ended (quit or killed) with unsaved state.",
        fix: "Save on `.inactive`, on `applicationWillTerminate`, and after edits: a quit sends no phase change.",
        anchor: "the run's end event (Readings 11)",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"},{"id":"about","kind":"Window"},{"id":"settings","kind":"Settings"},{"id":"status","kind":"MenuBarExtra"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":11,"window":"w1","phase":"active"}
            {"event":"write","t":50,"key":"theme","scope":"app"}
            {"event":"delegate","t":60,"callback":"willTerminate"}
            {"event":"terminate","t":61,"reason":"quit"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"},{"id":"about","kind":"Window"},{"id":"settings","kind":"Settings"},{"id":"status","kind":"MenuBarExtra"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":11,"window":"w1","phase":"active"}
            {"event":"write","t":50,"key":"theme","scope":"app"}
            {"event":"save","t":51,"store":"UserDefaults"}
            {"event":"terminate","t":61}
            """#,
        ])
}
