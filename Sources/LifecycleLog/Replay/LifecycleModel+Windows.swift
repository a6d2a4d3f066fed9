/// Windows: `open` and `dismiss`, duplicate and undeclared scenes, and
/// scene storage restored from an earlier window.
extension LifecycleReducer {
    mutating func applyOpen(seq: UInt64, t: Double, window id: Name, scene: Name, value: JSONValue?, restored: Bool) {
        guard hasRun else { return }
        let launchSeq = run.launchSeq
        if let existing = windowIndex(id) {
            report(.unknownWindow, at: seq, related: [openWindows[existing].openSeq],
                   "The open reuses window id \"\(names[id])\", which is still open since seq \(openWindows[existing].openSeq), so it opens nothing. Give each window a fresh id (a UUID per scene instance), or record the dismiss of the old window first.")
            return
        }
        let canonical = value?.canonicalJSON
        let declaration = run.scenes[scene]
        if declaration == nil {
            let declared = quotedList(run.scenes.keys)
            report(.undeclaredScene, at: seq, related: [launchSeq],
                   "Window \"\(names[id])\" opens scene \"\(names[scene])\", which the launch at seq \(launchSeq) does not declare (it declares \(declared.isEmpty ? "none" : declared)). Declare the scene in the App's body, or record the launch with every scene the body declares.")
        } else if value != nil, declaration?.hasPresentedType == false {
            report(.undeclaredScene, at: seq, related: [launchSeq],
                   "Window \"\(names[id])\" opens scene \"\(names[scene])\" with a value, but the scene is declared without `for`, so SwiftUI cannot present it. Declare it as WindowGroup(id: \"\(names[scene])\", for: YourValue.self), or open it with openWindow(id:).")
        }
        if let declaration, declaration.isSingleInstance || (value != nil && declaration.isPerValue) {
            let kind = declaration.kind
            let singleInstance = declaration.isSingleInstance
            // The earliest open window of the same scene (and value), found in place.
            var earliest: Int?
            for i in openWindows.indices where openWindows[i].scene == scene && (singleInstance || openWindows[i].canonicalValue == canonical) {
                if earliest.map({ openWindows[i].openSeq < openWindows[$0].openSeq }) ?? true { earliest = i }
            }
            if let earliest {
                let other = (id: openWindows[earliest].id, openSeq: openWindows[earliest].openSeq)
                let fix = singleInstance
                    ? "A \(kind.rawValue) scene has one window: SwiftUI brings the open one forward instead. Check whether it is open before calling openWindow(id:), or use a WindowGroup if several are wanted."
                    : "SwiftUI brings the existing window for an equal value forward instead of opening another. Open it with openWindow(value:) so SwiftUI can find it, and do not create windows for values that already have one."
                report(.duplicateWindow, at: seq, related: [other.openSeq],
                       "Window \"\(names[id])\" of scene \"\(names[scene])\" opens while window \"\(names[other.id])\" (opened at seq \(other.openSeq)) of the same scene\(singleInstance ? "" : " and value \(canonical ?? "")") is still open. \(fix)")
            }
        }
        let appBefore = appPhase
        var number: UInt32?
        if let canonical { number = valueNumber(canonical) }
        let identity = RestorationIdentity(scene: scene, valueNumber: number, window: id)
        let slot = restorationSlot(identity)
        let index = addWindow(instance: takeInstance(), id: id, scene: scene, canonicalValue: canonical, restored: restored,
                              openSeq: seq, restorationSlot: slot)
        if restored {
            let saved = restorations[slot]
            openWindows[index].restoredFrom = saved
            openWindows[index].sceneKeys = saved.mapValues { KeyState(saved: $0) }
        } else if !restorations[slot].isEmpty {
            restorations[slot] = NameMap()  // a fresh window: nothing to inherit from it until it saves
        }
        phasesChanged(seq: seq, t: t, appBefore: appBefore)
    }

    /// The number of a canonical window value, made when new.
    private mutating func valueNumber(_ canonical: String) -> UInt32 {
        if let number = valueNumbers[canonical] { return number }
        let number = UInt32(valueNumbers.count)
        valueNumbers[canonical] = number
        return number
    }

    /// The slot in ``restorations`` of `identity`, made when new.
    private mutating func restorationSlot(_ identity: RestorationIdentity) -> Int {
        if let slot = restorationSlots[identity] { return slot }
        restorationSlots[identity] = restorations.count
        restorations.append(NameMap())
        return restorations.count - 1
    }

    mutating func applyDismiss(seq: UInt64, t: Double, index: Int) {
        let appBefore = appPhase
        var unsaved = dirtySceneKeys(of: index)
        if !unsaved.isEmpty {
            unsaved = ordered(unsaved)
            report(.unsavedDismiss, at: seq, related: lastWriteSeqs(unsaved),
                   "Window \(names[openWindows[index].id]) was dismissed with unsaved \(list(unsaved)). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene.")
        }
        if let pending = openWindows[index].pendingBackground {
            openWindows[index].pendingBackground = nil
            recordMissedSave(pending)
        }
        dirtyCount -= unsaved.count
        removeWindow(at: index)
        phasesChanged(seq: seq, t: t, appBefore: appBefore)
    }
}
