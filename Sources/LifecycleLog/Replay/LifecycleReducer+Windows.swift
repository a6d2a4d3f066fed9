/// Windows: `open` and `dismiss`, duplicate and undeclared scenes, and
/// scene storage restored from an earlier window.
extension LifecycleReducer {
    mutating func applyOpen(seq: UInt64, t: Double, window id: WindowID, scene: String, value: JSONValue?, restored: Bool) {
        guard let launchSeq = run?.launchSeq else { return }
        if let existing = windows[id] {
            report(.unknownWindow, at: seq, related: [existing.openSeq],
                   "The open reuses window id \"\(id)\", which is still open since seq \(existing.openSeq), so it opens nothing. Give each window a fresh id (a UUID per scene instance), or record the dismiss of the old window first.")
            return
        }
        let canonical = value?.canonicalJSON
        let declaration = run?.scenes[scene]
        if declaration == nil {
            let declared = (run?.scenes.keys.sorted() ?? []).map { "\"\($0)\"" }.joined(separator: ", ")
            report(.undeclaredScene, at: seq, related: [launchSeq],
                   "Window \"\(id)\" opens scene \"\(scene)\", which the launch at seq \(launchSeq) does not declare (it declares \(declared.isEmpty ? "none" : declared)). Declare the scene in the App's body, or record the launch with every scene the body declares.")
        } else if value != nil, declaration?.presentedType == nil {
            report(.undeclaredScene, at: seq, related: [launchSeq],
                   "Window \"\(id)\" opens scene \"\(scene)\" with a value, but the scene is declared without `for`, so SwiftUI cannot present it. Declare it as WindowGroup(id: \"\(scene)\", for: YourValue.self), or open it with openWindow(id:).")
        }
        if let kind = declaration?.kind {
            let singleInstance = kind == .window || kind == .settings || kind == .menuBarExtra
            let valued = value != nil && (kind == .windowGroup || kind == .documentGroup)
            if singleInstance || valued,
               let other = windows.values.filter({ $0.scene == scene && (singleInstance || $0.canonicalValue == canonical) })
                .min(by: { $0.openSeq < $1.openSeq }) {
                let fix = singleInstance
                    ? "A \(kind.rawValue) scene has one window: SwiftUI brings the open one forward instead. Check whether it is open before calling openWindow(id:), or use a WindowGroup if several are wanted."
                    : "SwiftUI brings the existing window for an equal value forward instead of opening another. Open it with openWindow(value:) so SwiftUI can find it, and do not create windows for values that already have one."
                report(.duplicateWindow, at: seq, related: [other.openSeq],
                       "Window \"\(id)\" of scene \"\(scene)\" opens while window \"\(other.id)\" (opened at seq \(other.openSeq)) of the same scene\(singleInstance ? "" : " and value \(canonical ?? "")") is still open. \(fix)")
            }
        }
        let before = phaseSnapshot()
        var window = OpenWindow(instance: takeInstance(), id: id, scene: scene, value: value, canonicalValue: canonical,
                                restored: restored, ownPhase: nil, openSeq: seq, seenAtOpen: sharedVersions)
        let identity = OpenWindow.restorationIdentity(scene: scene, canonicalValue: canonical, id: id)
        window.restorationIdentity = identity
        if restored, let saved = restoration[identity] {
            window.restoredFrom = saved
            for (name, version) in saved { window.sceneKeys[name] = KeyState(saved: version) }
        }
        restoration[identity] = restored ? window.restoredFrom : [:]
        windows[id] = window
        phasesChanged(seq: seq, t: t, from: before, byPhaseEvent: false)
    }

    mutating func applyDismiss(seq: UInt64, t: Double, window id: WindowID) {
        // `!`: the caller checked that the window is open.
        let window = windows[id]!
        let before = phaseSnapshot()
        let unsaved = window.sceneKeys.filter { $0.value.isDirty }.map { window.sceneKeyRef($0.key) }.sorted()
        if !unsaved.isEmpty {
            report(.unsavedDismiss, at: seq, related: lastWriteSeqs(unsaved),
                   "Window \(id) was dismissed with unsaved \(Self.list(unsaved)). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene.")
        }
        if let pending = window.pendingBackground {
            windows[id]?.pendingBackground = nil
            recordMissedSave(pending)
        }
        for key in unsaved { dirty.remove(key) }
        windows[id] = nil
        phasesChanged(seq: seq, t: t, from: before, byPhaseEvent: false)
    }
}
