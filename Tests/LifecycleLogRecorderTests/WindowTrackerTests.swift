import LifecycleLogRecorder
import Testing

/// The adapter's decisions, fed the callback sequences SwiftUI produces.
/// This target links only LifecycleLogRecorder: no LMDB, no SwiftUI.
@Suite struct WindowTrackerTests {
    @Test func firstAppearOpensTheWindow() {
        var tracker = WindowTracker(platform: .iPadOS)
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [.open(window: "w1", scene: "main")])
        #expect(tracker.openWindows == ["w1"])
    }

    @Test func aValueIsRecordedWithTheOpen() {
        var tracker = WindowTracker(platform: .iPadOS)
        let value = JSONValue.string("note-42")
        #expect(tracker.appear(window: "w2", scene: "note", value: value, instance: 1)
            == [.open(window: "w2", scene: "note", value: value)])
    }

    @Test func repeatedAppearAndDisappearOfOneInstanceRecordNothing() {
        // A tab switch, a minimised Mac window, an iPad scene sent to the background and back.
        var tracker = WindowTracker(platform: .iPadOS)
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
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.phase(.active, window: "w1")
        #expect(tracker.phase(.background, window: "w1") == [.phase(.background, window: "w1")])
        #expect(tracker.disappear(window: "w1", instance: 1) == [])
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [])
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
    }

    @Test func phasesAreRecordedOnlyOnChange() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.phase(.inactive, window: "w1") == [.phase(.inactive, window: "w1")])
        #expect(tracker.phase(.inactive, window: "w1") == [])
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
        #expect(tracker.phase(.active, window: "w1") == [])
    }

    @Test func eachWindowHasItsOwnPhase() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.appear(window: "w2", scene: "main", instance: 2)
        #expect(tracker.phase(.active, window: "w1") == [.phase(.active, window: "w1")])
        #expect(tracker.phase(.active, window: "w2") == [.phase(.active, window: "w2")])
        #expect(tracker.phase(.background, window: "w2") == [.phase(.background, window: "w2")])
        #expect(tracker.windows["w1"]?.phase == .active)
    }

    @Test func aPhaseBeforeTheFirstAppearIsHeldForTheOpen() {
        var tracker = WindowTracker(platform: .iPadOS)
        #expect(tracker.phase(.inactive, window: "w1") == [])
        #expect(tracker.phase(.active, window: "w1") == [])  // the latest one is kept
        #expect(tracker.heldPhases == ["w1": .active])
        #expect(tracker.appear(window: "w1", scene: "main", instance: 1)
            == [.open(window: "w1", scene: "main"), .phase(.active, window: "w1")])
        #expect(tracker.heldPhases.isEmpty)
        #expect(tracker.phase(.active, window: "w1") == [])  // the glue reports the phase again on appear
    }

    @Test func appLevelPhaseIsRecordedOnceForEveryWindowThatReportsIt() {
        var tracker = WindowTracker(platform: .iPadOS)
        #expect(tracker.appPhase(.active) == [.phase(.active, window: nil)])
        #expect(tracker.appPhase(.active) == [])  // a second window reports the same change
        #expect(tracker.appPhase(.background) == [.phase(.background, window: nil)])
        #expect(tracker.appPhase(.background) == [])
        #expect(tracker.appPhase == .background)
    }

    @Test func restoredWindowOpensRestored() {
        var tracker = WindowTracker(platform: .iPadOS)
        #expect(tracker.appear(window: "saved-id", scene: "main", restored: true, instance: 1)
            == [.open(window: "saved-id", scene: "main", restored: true)])
    }

    @Test func aNewWindowHasNoRestoredField() {
        var tracker = WindowTracker(platform: .iPadOS)
        guard case .open(_, _, _, let restored)? = tracker.appear(window: "w1", scene: "main", restored: false, instance: 1).first else {
            Issue.record("no open")
            return
        }
        #expect(restored == nil)
    }

    @Test func onAMacTheEndOfAnUnobservedViewInstanceDismissesTheWindow() {
        // macOS, no NSWindow found by the glue: SwiftUI released the root view's state when the window closed.
        var tracker = WindowTracker(platform: .macOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.phase(.background, window: "w1")
        _ = tracker.disappear(window: "w1", instance: 1)
        #expect(tracker.end(window: "w1", instance: 1) == [.dismiss(window: "w1", reason: "closed")])
        #expect(tracker.openWindows.isEmpty)
        #expect(tracker.end(window: "w1", instance: 1) == [])  // once
        #expect(tracker.phase(.background, window: "w1") == [])  // a late phase opens nothing
        #expect(tracker.heldPhases.isEmpty)
    }

    @Test func theEndOfAnotherInstanceIsIgnored() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 2)
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.disappear(window: "w1", instance: 1) == [])
        #expect(tracker.windows["w1"]?.isVisible == true)
    }

    @Test func aViewThatEndsBeforeAppearingDropsItsHeldPhase() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.phase(.active, window: "w1")
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.heldPhases.isEmpty)
    }

    // MARK: Issue 21, item 3: a disconnection is not a close

    /// iPadOS reclaims a background scene's memory (UIKit's "Scenes" documentation: the system may
    /// disconnect a background scene at any time; the session survives and reconnects with its
    /// state-restoration data). The callbacks, in the order UIKit and SwiftUI give them:
    /// `scenePhase` .inactive, .background, `onDisappear`, `UIScene.didDisconnectNotification`, the
    /// root view's state released; later, a new root view (id from `@SceneStorage`), `onAppear`,
    /// `scenePhase` .inactive, .active. Recorded: the phases, the disconnection and reconnection as
    /// what they are, and no `dismiss` or second `open`.
    @Test func anIPadSceneDisconnectedToReclaimMemoryStaysOpenAndReconnects() {
        var tracker = WindowTracker(platform: .iPadOS)
        var events = tracker.appear(window: "w1", scene: "main", instance: 1)
        tracker.attach(window: "w1", session: "S1")
        events += tracker.phase(.active, window: "w1")
        events += tracker.phase(.inactive, window: "w1")
        events += tracker.phase(.background, window: "w1")
        events += tracker.disappear(window: "w1", instance: 1)
        events += tracker.disconnect(window: "w1")
        events += tracker.end(window: "w1", instance: 1)
        #expect(tracker.openWindows == ["w1"], "a disconnected scene is not closed")
        events += tracker.appear(window: "w1", scene: "main", restored: true, instance: 2)
        tracker.attach(window: "w1", session: "S1")
        events += tracker.phase(.inactive, window: "w1")
        events += tracker.phase(.active, window: "w1")
        #expect(events == [
            .open(window: "w1", scene: "main"),
            .phase(.active, window: "w1"), .phase(.inactive, window: "w1"), .phase(.background, window: "w1"),
            .delegate(callback: "sceneDidDisconnect", window: "w1"),
            .delegate(callback: "sceneWillConnect", window: "w1"),
            .phase(.inactive, window: "w1"), .phase(.active, window: "w1"),
        ])
    }

    /// Without the glue's scene observation (no session attached), the release of the root view's
    /// state is all there is: where scenes disconnect, it is recorded as the disconnection.
    @Test func whereScenesDisconnectAnUnobservedViewEndIsADisconnection() {
        var tracker = WindowTracker(platform: .visionOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.end(window: "w1", instance: 1) == [.delegate(callback: "sceneDidDisconnect", window: "w1")])
        #expect(tracker.disconnect(window: "w1") == [], "once")
        #expect(tracker.appear(window: "w1", scene: "main", restored: true, instance: 2)
            == [.delegate(callback: "sceneWillConnect", window: "w1")])
        #expect(tracker.windows["w1"]?.instance == 2)
        #expect(tracker.end(window: "w1", instance: 1) == [], "the old instance's late end")
    }

    /// The user closes a scene in the iPad app switcher: it goes to the background and disconnects,
    /// then `application(_:didDiscardSceneSessions:)` names its session. That is the close.
    @Test func aSceneClosedInTheAppSwitcherIsDismissedWhenItsSessionIsDiscarded() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.appear(window: "w2", scene: "main", instance: 2)
        tracker.attach(window: "w1", session: "S1")
        tracker.attach(window: "w2", session: "S2")
        _ = tracker.phase(.background, window: "w1")
        #expect(tracker.disconnect(window: "w1") == [.delegate(callback: "sceneDidDisconnect", window: "w1")])
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.discard(sessions: ["S1", "S-unknown"]) == [.dismiss(window: "w1", reason: "discarded")])
        #expect(tracker.openWindows == ["w2"])
        #expect(tracker.discard(sessions: ["S1"]) == [], "once")
    }

    /// spec/apple-order.md, W6: whether SwiftUI forwards `application(_:didDiscardSceneSessions:)`
    /// to an adaptor is unverified, so the trace does not depend on it. A disconnected window whose
    /// session is gone from `UIApplication.openSessions` is discarded there; the discard arriving
    /// after it (or before it) records nothing more. Connected windows, windows with no session,
    /// and disconnected windows whose session the application still holds stay open.
    @Test func aDisconnectedWindowWhoseSessionIsGoneIsDiscardedWhetherOrNotTheDiscardComes() {
        for discardFirst in [false, true] {
            var tracker = WindowTracker(platform: .iPadOS)
            _ = tracker.appear(window: "w1", scene: "main", instance: 1)  // disconnected, session gone
            _ = tracker.appear(window: "w2", scene: "main", instance: 2)  // disconnected, session held
            _ = tracker.appear(window: "w3", scene: "main", instance: 3)  // connected, session not listed
            _ = tracker.appear(window: "w4", scene: "main", instance: 4)  // disconnected, no session known
            tracker.attach(window: "w1", session: "S1")
            tracker.attach(window: "w2", session: "S2")
            tracker.attach(window: "w3", session: "S3")
            for w in ["w1", "w2", "w4"] { _ = tracker.disconnect(window: w) }
            var events: [LifecycleEvent.Kind] = []
            if discardFirst { events += tracker.discard(sessions: ["S1"]) }
            events += tracker.sessionsStillOpen(["S2"])
            if !discardFirst { events += tracker.discard(sessions: ["S1"]) }
            #expect(events == [.dismiss(window: "w1", reason: "discarded")], "discard first: \(discardFirst)")
            #expect(tracker.openWindows == ["w2", "w3", "w4"])
            #expect(tracker.sessionsStillOpen([]) == [.dismiss(window: "w2", reason: "discarded")])
        }
    }

    /// A contradiction of spec/apple-order.md is a `diagnostic`, once per check in a run; a new
    /// run records it again.
    @Test func aContradictionIsRecordedOncePerCheckAndRun() {
        var tracker = WindowTracker(platform: .macOS)
        #expect(tracker.contradiction(check: "W7", message: "a", window: "w9") == [.diagnostic(check: "W7", message: "a", window: "w9")])
        #expect(tracker.contradiction(check: "W7", message: "b") == [])
        #expect(tracker.contradiction(check: "A2", message: "c") == [.diagnostic(check: "A2", message: "c")])
        tracker.reset()
        #expect(tracker.contradiction(check: "W7", message: "d") == [.diagnostic(check: "W7", message: "d")])
    }

    // MARK: Issue 21, item 4: Mac Settings and Window scenes, root identity

    /// A macOS `Settings` (or `Window`) scene keeps its root view and `@State` across a close and a
    /// reopen: `NSWindow.willCloseNotification` is the close, `scenePhase` may still report the
    /// closed window, and the reopen is an `onAppear` of the same view instance.
    @Test func aMacSettingsWindowClosedAndReopenedIsDismissedAndOpenedAgain() {
        var tracker = WindowTracker(platform: .macOS)
        var events = tracker.appear(window: "settings", scene: "settings", instance: 1)
        tracker.attach(window: "settings", session: "nswindow-1")
        events += tracker.phase(.active, window: "settings")
        events += tracker.close(window: "settings")
        events += tracker.disappear(window: "settings", instance: 1)
        events += tracker.phase(.background, window: "settings")  // the closed window's late phase
        // The reopen: the kept view's `onAppear` only. The glue attaches nothing (its view is in the
        // same NSWindow, so `viewDidMoveToWindow` is not called): the close kept the attachment.
        events += tracker.appear(window: "settings", scene: "settings", restored: false, instance: 1)
        #expect(tracker.windows["settings"]?.session == "nswindow-1", "still observed after the reopen")
        events += tracker.phase(.active, window: "settings")
        #expect(events == [
            .open(window: "settings", scene: "settings"), .phase(.active, window: "settings"),
            .dismiss(window: "settings", reason: "closed"),
            .open(window: "settings", scene: "settings"), .phase(.active, window: "settings"),
        ])
        #expect(tracker.end(window: "settings", instance: 1) == [], "an observed window's view end is no second close")
    }

    /// Issue 29, item 6: the glue may find the window's scene (or `NSWindow`) before the root view's
    /// `onAppear`: the session is held and attached at the `open`, on every platform, so that the
    /// scene's discard (or the window's close) is still the window's close, and a root-state release
    /// is no close.
    @Test func aSessionAttachedBeforeTheFirstAppearIsTheWindowsAtItsOpen() {
        for platform in [Platform.iPadOS, .macOS, .visionOS] {
            var tracker = WindowTracker(platform: platform)
            tracker.attach(window: "w1", session: "S1")
            #expect(tracker.appear(window: "w1", scene: "main", instance: 1) == [.open(window: "w1", scene: "main")])
            #expect(tracker.windows["w1"]?.session == "S1", "\(platform)")
            #expect(tracker.heldSessions.isEmpty)
            #expect(tracker.end(window: "w1", instance: 1) == [], "\(platform): an observed window's view end is no close or disconnection")
            if platform == .macOS {
                #expect(tracker.close(window: "w1") == [.dismiss(window: "w1", reason: "closed")])
            } else {
                #expect(tracker.discard(sessions: ["S1"]) == [.dismiss(window: "w1", reason: "discarded")])
                #expect(tracker.heldSessions.isEmpty, "a discarded session is not kept")
            }
        }
    }

    /// A root view whose identity changes (`.id(x)`, `if`/`else` branches each with the modifier):
    /// the old view's state is released and a new view shows the same window (its id from
    /// `@SceneStorage`), in either order. It is the same window: nothing is recorded.
    @Test func aRootWhoseIdentityChangesIsStillTheSameWindow() {
        for platform in [Platform.macOS, .iPadOS] {
            for endFirst in [true, false] {
                var tracker = WindowTracker(platform: platform)
                _ = tracker.appear(window: "w1", scene: "main", instance: 1)
                tracker.attach(window: "w1", session: "S1")
                _ = tracker.phase(.active, window: "w1")
                var events: [LifecycleEvent.Kind] = []
                if endFirst { events += tracker.end(window: "w1", instance: 1) }
                events += tracker.appear(window: "w1", scene: "main", restored: true, instance: 2)
                tracker.attach(window: "w1", session: "S1")
                if !endFirst { events += tracker.end(window: "w1", instance: 1) }
                events += tracker.phase(.active, window: "w1")
                #expect(events == [], "\(platform), end first: \(endFirst)")
                #expect(tracker.windows["w1"]?.instance == 2)
            }
        }
    }

    /// macOS without the glue's NSWindow observation: a `WindowGroup(for:)` window closed (its view
    /// released, but taken for a possible identity change) and the same value opened again in a new
    /// window. SwiftUI shows one window per value, so the first is closed.
    @Test func aNewWindowForTheValueOfAReleasedOneClosesTheReleasedOne() {
        var tracker = WindowTracker(platform: .macOS)
        let note = JSONValue.string("note-1")
        _ = tracker.appear(window: "w1", scene: "note", value: note, instance: 1)
        tracker.attach(window: "w1", session: "nswindow-1")
        #expect(tracker.end(window: "w1", instance: 1) == [])
        #expect(tracker.appear(window: "w2", scene: "note", value: note, instance: 2)
            == [.dismiss(window: "w1", reason: "closed"), .open(window: "w2", scene: "note", value: note)])
    }

    @Test func anExplicitDismissIsRecordedOnce() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        #expect(tracker.dismiss(window: "w1", reason: "dismissWindow") == [.dismiss(window: "w1", reason: "dismissWindow")])
        #expect(tracker.dismiss(window: "w1") == [])
        #expect(tracker.end(window: "w1", instance: 1) == [])  // the view's end afterwards
    }

    @Test func aDismissOfAWindowNeverOpenedRecordsNothing() {
        var tracker = WindowTracker(platform: .iPadOS)
        #expect(tracker.dismiss(window: "nope") == [])
        #expect(tracker.disappear(window: "nope", instance: 1) == [])
    }

    @Test func resetForgetsEverything() {
        var tracker = WindowTracker(platform: .iPadOS)
        _ = tracker.appear(window: "w1", scene: "main", instance: 1)
        _ = tracker.appPhase(.active)
        tracker.reset()
        #expect(tracker == WindowTracker(platform: .iPadOS))
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
