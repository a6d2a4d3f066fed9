/// `unsaved-at-exit`: the process ended (terminate, willTerminate, a kill, or the next launch) with unsaved
/// keys, other than those whose background save was already missed (`missed-background-save` names them).
package struct UnsavedAtExit: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition, model.dirtyCount > 0 else { return }
        let unsaved = model.ordered(model.dirtyKeys().subtracting(model.run.missedInBackground))
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
