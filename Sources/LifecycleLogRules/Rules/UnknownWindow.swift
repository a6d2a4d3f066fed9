/// `unknown-window`: an event names a window that is not open, or an `open` reuses an open window's id.
package struct UnknownWindow: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
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
