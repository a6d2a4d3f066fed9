/// `unsaved-dismiss`: a window was dismissed with unsaved scene keys, or, the last window showing
/// a document, with unsaved keys of that document.
package struct UnsavedDismiss: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .windowDismissed(let index) = transition, model.dirtyCount > 0 else { return }
        var unsaved = model.dirtySceneKeys(of: index)
        // Trace format 2: the last window showing a document takes its unsaved document keys along.
        for key in model.documentKeysLeft(byDismissing: index) where model.sharedKeys[key].state.isDirty {
            unsaved.append(model.sharedKeys[key].ref)
        }
        guard !unsaved.isEmpty else { return }
        let keys = model.ordered(unsaved)
        findings.report(.unsavedDismiss, at: now.seq, related: model.lastWriteSeqs(keys), subject: model.subject(keys: keys, windows: [index]),
                        "Window \(model.names[model.openWindows[index].id]) was dismissed with unsaved \(model.list(keys)). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene.")
    }
}
