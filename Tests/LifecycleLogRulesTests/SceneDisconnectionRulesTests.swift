import XCTest
@testable import LifecycleLogRules

/// Issue 21, item 3: what the rules make of what `WindowTracker` records for Apple's documented
/// scene sequences. A disconnected scene is not a closed one (trace-format.md, `delegate`): its
/// unsaved scene state is judged when its session is discarded or the run ends, never at the
/// disconnection, and a reconnection is no second window.
final class SceneDisconnectionRulesTests: XCTestCase {
    private func session(_ steps: (inout WindowTracker, inout [LifecycleEvent.Kind]) -> Void) throws -> [Rule] {
        var tracker = WindowTracker(platform: .iPadOS)
        var kinds: [LifecycleEvent.Kind] = [.launch(LifecycleEvent.Launch(platform: .iPadOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)], reason: "user"))]
        steps(&tracker, &kinds)
        let events = kinds.enumerated().map { LifecycleEvent(t: Double($0.offset * 10), $0.element) }
        return try Replayer.replay(events: events).findings.map(\.rule)
    }

    /// iPadOS reclaims the memory of a background scene holding an unsaved draft, and the user comes
    /// back to it: no `unsaved-dismiss` (the draft is what `@SceneStorage` restores, or what the
    /// background save should have kept: `missed-background-save` is the rule that speaks of it).
    func testADisconnectionAndReconnectionIsNoDismissAndNoSecondWindow() throws {
        let rules = try session { tracker, kinds in
            kinds += tracker.appear(window: "w1", scene: "main", instance: 1)
            tracker.attach(window: "w1", session: "S1")
            kinds += tracker.phase(.active, window: "w1")
            kinds += tracker.appPhase(.active)
            kinds.append(.write(key: "draft", scope: .scene, window: "w1"))
            kinds += tracker.phase(.inactive, window: "w1")
            kinds += tracker.appPhase(.inactive)
            kinds.append(.save(keys: ["draft"], window: "w1"))
            kinds += tracker.phase(.background, window: "w1")
            kinds += tracker.appPhase(.background)
            kinds += tracker.disconnect(window: "w1")
            kinds += tracker.end(window: "w1", instance: 1)
            kinds += tracker.appear(window: "w1", scene: "main", restored: true, instance: 2)
            kinds += tracker.phase(.inactive, window: "w1")
            kinds += tracker.appPhase(.inactive)
            kinds += tracker.phase(.active, window: "w1")
            kinds += tracker.appPhase(.active)
        }
        XCTAssertEqual(rules, [])
    }

    /// The same draft, never saved, and the user closes the scene in the app switcher: the discard
    /// of its session is the close, and `unsaved-dismiss` fires there.
    func testADiscardedSessionWithAnUnsavedDraftIsAnUnsavedDismiss() throws {
        let rules = try session { tracker, kinds in
            kinds += tracker.appear(window: "w1", scene: "main", instance: 1)
            tracker.attach(window: "w1", session: "S1")
            kinds += tracker.phase(.active, window: "w1")
            kinds.append(.write(key: "draft", scope: .scene, window: "w1"))
            kinds += tracker.phase(.inactive, window: "w1")
            kinds += tracker.disconnect(window: "w1")
            kinds += tracker.discard(sessions: ["S1"])
        }
        XCTAssertEqual(rules, [.unsavedDismiss])
    }
}
