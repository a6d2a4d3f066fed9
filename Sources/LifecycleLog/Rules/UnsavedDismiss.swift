/// `unsaved-dismiss`: a window was dismissed with unsaved scene keys.
struct UnsavedDismiss: BuiltInRule {
    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        guard case .windowDismissed(let index) = transition, model.dirtyCount > 0 else { return }
        let unsaved = model.dirtySceneKeys(of: index)
        guard !unsaved.isEmpty else { return }
        let keys = model.ordered(unsaved)
        findings.report(.unsavedDismiss, at: now.seq, related: model.lastWriteSeqs(keys),
                        "Window \(model.names[model.openWindows[index].id]) was dismissed with unsaved \(model.list(keys)). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene.")
    }
}
