/// `scene-storage-lost`: a restored window read a scene key as empty that the window it restores had saved.
package struct SceneStorageLost: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .keyRead(let name, .scene, let window?, 0) = transition, model.openWindows[window].restored else { return }
        check(name, window: window, now, model, &findings)
    }

    @inline(never)
    private func check(_ name: Name, window: Int, _ now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard let saved = model.openWindows[window].restoredFrom[name], saved > 0 else { return }
        findings.report(.sceneStorageLost, at: now.seq, related: [model.openWindows[window].openSeq],
                        subject: model.subject(keys: [model.openWindows[window].sceneKeyRef(name)], windows: [window]),
                        "Restored window \(model.names[model.openWindows[window].id]) read scene key \"\(model.names[name])\" as empty (version 0), but the window it restores had saved version \(saved). Keep the window's state in @SceneStorage (or restore it in .onAppear from what was saved) instead of starting empty.")
    }
}
