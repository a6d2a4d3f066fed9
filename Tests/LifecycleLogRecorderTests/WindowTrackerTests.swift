import LifecycleLogRecorder
import Testing

/// The adapter's decisions, fed the callback sequences SwiftUI produces.
/// This target links only LifecycleLogRecorder: no LMDB, no SwiftUI.
@Suite struct WindowTrackerTests {
    @Test func firstAppearOpensTheWindow() {
        var tracker = WindowTracker()
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [.open(window: "w1", scene: "main")])
        #expect(tracker.openWindows == ["w1"])
    }

    @Test func aValueIsRecordedWithTheOpen() {
        var tracker = WindowTracker()
        let value = JSONValue.string("note-42")
        #expect(tracker.appear(window: "w2", scene: "note", value: value, instance: 1)
            == [.open(window: "w2", scene: "note", value: value)])
    }

    @Test func repeatedAppearAndDisappearOfOneInstanceRecordNothing() {
        // A tab switch, a minimised Mac window, an iPad scene sent to the background and back.
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        for _ in 0..<3 {
            #expect(tracker.disappear(window: "w1", instance: 1) == [])
            #expect(tracker.windows["w1"]?.isVisible == false)
            #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [])
            #expect(tracker.windows["w1"]?.isVisible == true)
        }
        #expect(tracker.openWindows == ["w1"])
    }

    @Test func disappearInTheBackgroundDoesNotDismiss() {
        // iPad: the scene goes to the background and its root view disappears; it comes back.
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.phase(.active, window: "w1")
        #expect(tracker.phase(.background, window: "w1") == [.phase(.background, window: "w1")])
        #expect(tracker.disappear(window: "w1", instance: 1) == [])
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [])
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
    }

    @Test func phasesAreRecordedOnlyOnChange() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.phase(.inactive, window: "w1") == [.phase(.inactive, window: "w1")])
        #expect(tracker.phase(.inactive, window: "w1") == [])
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
        #expect(tracker.phase(.active, window: "w1") == [])
    }

    @Test func eachWindowHasItsOwnPhase() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.appear(window: "w2", scene: "main", instance: 2)
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
        #expect(tracker.phase(.active, window: "w2") == [.phase(.active, window: "w2")])
        #expect(tracker.phase(.background, window: "w2") == [.phase(.background, window: "w2")])
        #expect(tracker.windows["w1"]?.phase == .active)
    }

    @Test func aPhaseBeforeTheFirstAppearIsHeldForTheOpen() {
        var tracker = WindowTracker()
        #expect(tracker.phase(.inactive, window: "w1") == [])
        #expect(tracker.phase(.active, window: "w1") == [])  // the latest one is kept
        #expect(tracker.heldPhases == ["w1": .active])
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1)
            == [.open(window: "w1", scene: "main"), .phase(.active, window: "w1")])
        #expect(tracker.heldPhases.isEmpty)
        #expect(tracker.phase(.active, window: "w1") == [])  // the glue reports the phase again on appear
    }

    @Test func appLevelPhaseIsRecordedOnceForEveryWindowThatReportsIt() {
        var tracker = WindowTracker()
        #expect(tracker.appPhase(.active) == [.phase(.active, window: nil)])
        #expect(tracker.appPhase(.active) == [])  // a second window reports the same change
        #expect(tracker.appPhase(.background) == [.phase(.background, window: nil)])
        #expect(tracker.appPhase(.background) == [])
        #expect(tracker.appPhase == .background)
    }

    @Test func restoredWindowOpensRestored() {
        var tracker = WindowTracker()
        #expect(tracker.appear(window: "saved-id", scene: "main", restored: true, instance: 1)
            == [.open(window: "saved-id", scene: "main", restored: true)])
    }

    @Test func aNewWindowHasNoRestoredField() {
        var tracker = WindowTracker()
        guard case .open(_, _, _, let restored)? = tracker.appear(window: "w1", scene: "main", restored: false, instance: 1).first else {
            Issue.record("no open")
            return
        }
        #expect(restored == nil)
    }

    @Test func theEndOfTheViewInstanceDismissesTheWindow() {
        // The window closed, or its scene was disconnected: SwiftUI released the root view's state.
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.phase(.background, window: "w1")
        _ = tracker.disappear(window: "w1", instance: 1)
        #expect(tracker.end(window: "w1", instance: 1) == [.dismiss(window: "w1", reason: "closed")])
        #expect(tracker.openWindows.isEmpty)
        #expect(tracker.end(window: "w1", instance: 1) == [])  // once
        #expect(tracker.phase(.background, window: "w1") == [])  // a late phase opens nothing
    }

    @Test func theEndOfAnotherInstanceIsIgnored() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 2)
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.disappear(window: "w1", instance: 1) == [])
        #expect(tracker.windows["w1"]?.isVisible == true)
    }

    @Test func aViewThatEndsBeforeAppearingDropsItsHeldPhase() {
        var tracker = WindowTracker()
        _ = tracker.phase(.active, window: "w1")
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.heldPhases.isEmpty)
    }

    @Test func aDiscardedSceneReconnectedWithTheSameIDIsDismissedAndReopened() {
        // The old view's end was not seen; a new instance appears with the id from @SceneStorage.
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.appear(window: "w1", scene: "main", restored: true, instance: 2) == [
            .dismiss(window: "w1", reason: "discarded"),
            .open(window: "w1", scene: "main", restored: true),
        ])
        #expect(tracker.windows["w1"]?.instance == 2)
        #expect(tracker.end(window: "w1", instance: 1) == [])  // the old instance's late end
    }

    @Test func disconnectThenReconnectIsDismissThenRestoredOpen() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.phase(.background, window: "w1")
        _ = tracker.disappear(window: "w1", instance: 1)
        #expect(tracker.end(window: "w1", instance: 1) == [.dismiss(window: "w1", reason: "closed")])
        #expect(tracker.appear(window: "w1", scene: "main", restored: true, instance: 2)
            == [.open(window: "w1", scene: "main", restored: true)])
        // The reconnected window has no phase of its own yet.
        #expect(tracker.phase(.background, window: "w1") == [.phase(.background, window: "w1")])
    }

    @Test func anExplicitDismissIsRecordedOnce() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.dismiss(window: "w1", reason: "dismissWindow") == [.dismiss(window: "w1", reason: "dismissWindow")])
        #expect(tracker.dismiss(window: "w1") == [])
        #expect(tracker.end(window: "w1", instance: 1) == [])  // the view's end afterwards
    }

    @Test func aDismissOfAWindowNeverOpenedRecordsNothing() {
        var tracker = WindowTracker()
        #expect(tracker.dismiss(window: "nope") == [])
        #expect(tracker.disappear(window: "nope", instance: 1) == [])
    }

    @Test func resetForgetsEverything() {
        var tracker = WindowTracker()
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.appPhase(.active)
        tracker.reset()
        #expect(tracker == WindowTracker())
        #expect(tracker.appPhase(.active) == [.phase(.active, window: nil)])
    }

    @Test func randomWindowIDsLookLikeUUIDsAndDiffer() {
        let ids = (0..<100).map { _ in WindowTracker.randomWindowID() }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.count == 36)
            #expect(id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
            #expect(id.allSatisfy { $0 == "-" || $0.isHexDigit && !$0.isUppercase })
        }
    }
}
