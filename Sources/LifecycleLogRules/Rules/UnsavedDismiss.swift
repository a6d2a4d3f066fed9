/// `unsaved-dismiss`: a window was dismissed with unsaved scene keys, or, the last window showing
/// a document, with unsaved keys of that document.
package struct UnsavedDismiss: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/unsaved-dismiss.jsonl` and `traces/rules/unsaved-dismiss-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unsavedDismiss, defaultSeverity: .error,
        summary: "A window was dismissed with unsaved scene state.",
        fix: "Save a window's state in `onDisappear` or when its phase becomes `.inactive`.",
        anchor: "the `dismiss`",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"},{"id":"about","kind":"Window"},{"id":"settings","kind":"Settings"},{"id":"status","kind":"MenuBarExtra"}]}
            {"event":"open","t":10,"window":"n1","scene":"note","value":{"id":1}}
            {"event":"phase","t":11,"window":"n1","phase":"active"}
            {"event":"write","t":50,"window":"n1","key":"draft","scope":"scene"}
            {"event":"open","t":60,"window":"n2","scene":"note","value":{"id":2}}
            {"event":"dismiss","t":70,"window":"n1","reason":"user"}
            {"event":"write","t":80,"window":"n2","key":"draft","scope":"scene"}
            {"event":"save","t":90,"window":"n2"}
            {"event":"dismiss","t":100,"window":"n2"}
            {"event":"terminate","t":200}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"n1","scene":"note","value":1}
            {"event":"phase","t":11,"window":"n1","phase":"active"}
            {"event":"write","t":20,"window":"n1","key":"draft","scope":"scene"}
            {"event":"save","t":30,"window":"n1","keys":["draft"]}
            {"event":"dismiss","t":40,"window":"n1"}
            {"event":"terminate","t":50}
            """#,
        ])
}
