/// `unsaved-at-exit`: the process ended (terminate, or killed: the next launch came) with unsaved
/// keys, other than those whose background save was already missed (`missed-background-save` names them).
struct UnsavedAtExit: BuiltInRule {
    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition, model.dirtyCount > 0 else { return }
        let unsaved = model.ordered(model.dirtyKeys().subtracting(model.run.missedInBackground))
        guard !unsaved.isEmpty else { return }
        let how = end.nextLaunch == nil
            ? "The app terminated"
            : "The process was killed (the next launch came with no terminate)"
        findings.report(.unsavedAtExit, at: end.seq, related: model.lastWriteSeqs(unsaved),
                        "\(how) with unsaved \(model.list(unsaved)). Saving only on .background misses this: a quit on macOS sends no phase change and a kill can come while .inactive. Save when the scene phase becomes .inactive, on applicationWillTerminate, and after edits.")
    }
}
