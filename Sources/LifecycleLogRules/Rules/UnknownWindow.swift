/// `unknown-window`: an event names a window that is not open, or an `open` reuses an open window's id.
package struct UnknownWindow: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        switch transition {
        case .unknownWindow(let event):
            findings.report(.unknownWindow, at: now.seq, related: [], subject: FindingSubject(details: ["event:\(event.kindName(model.names))"]),
                            "The \(event.kindName(model.names)) event names window \"\(model.names[event.window])\", which is not open in this run, so it has no effect. Record an open for the window first, and stop sending events for a window after its dismiss.")
        case .windowIdReused(let id, let existing):
            let openSeq = model.openWindows[existing].openSeq
            findings.report(.unknownWindow, at: now.seq, related: [openSeq], subject: model.subject(windows: [existing], details: ["id reused"]),
                            "The open reuses window id \"\(model.names[id])\", which is still open since seq \(openSeq), so it opens nothing. Give each window a fresh id (a UUID per scene instance), or record the dismiss of the old window first.")
        default:
            break
        }
    }
}

extension UnknownWindow: DescribedRule {
    /// `unknown-window` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with examples from `traces/rules/unknown-window.jsonl` and `traces/rules/unknown-window-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unknownWindow, defaultSeverity: .error,
        summary: "An event names a window that is not open, or reuses an open window's id.",
        fix: "Record `open` before a window's events; fresh ids per window.",
        anchor: "the event naming the window",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w9","phase":"active"}
            {"event":"phase","t":21,"window":"w1","phase":"active"}
            {"event":"open","t":30,"window":"w1","scene":"main"}
            {"event":"dismiss","t":40,"window":"w1"}
            {"event":"open","t":50,"window":"w1","scene":"main"}
            {"event":"dismiss","t":60,"window":"w2"}
            {"event":"write","t":70,"window":"w1","key":"draft","scope":"scene"}
            {"event":"save","t":80,"window":"w1"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"write","t":30,"window":"w1","key":"draft","scope":"scene"}
            {"event":"save","t":40,"window":"w1"}
            {"event":"dismiss","t":50,"window":"w1"}
            {"event":"open","t":60,"window":"w1","scene":"main"}
            {"event":"delegate","t":70,"callback":"sceneWillConnect","window":"w1"}
            """#,
        ])
}
