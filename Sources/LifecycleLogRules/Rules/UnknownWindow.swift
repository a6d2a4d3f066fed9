/// `unknown-window`: an event names a window that is not open, or an `open` reuses an open window's id.
package struct UnknownWindow: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.unknownWindow, .windowIdReused]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unknown-window", "rules/unknown-window-negative"]

    /// The rule as it starts a trace.
    package init() {}

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
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unknownWindow, defaultSeverity: .error,
        summary: "An event names a window that is not open, or reuses an open window's id.",
        fix: "Record `open` before a window's events; fresh ids per window.",
        anchor: "the event naming the window",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unknown-window`: An event names a window that is not open, or reuses an open window's id.
    public static let unknownWindow = Rule(catalogue: "unknown-window")
}
