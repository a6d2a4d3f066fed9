import XCTest
@testable import LifecycleLog

/// Issue 21, item 5: the launch is recorded where the system says how the app was launched (the
/// app delegate adaptor), with the app-level phase from the application's own notifications, for
/// the sequences Apple documents. Each session is also replayed: it must give no finding.
final class LaunchRecordingTests: XCTestCase {
    private let scenes = [SceneDeclaration(id: "main", kind: .windowGroup)]

    private func make() -> (SceneRecorder, MemorySink) {
        let sink = MemorySink()
        let recorder = LifecycleRecorder(sink: sink, durability: .everyEvent, clock: { 0 })
        let counter = Locked(0)
        return (SceneRecorder(recorder, platform: .iOS, makeWindowID: {
            counter.withLock { n in
                n += 1
                return "w\(n)"
            }
        }), sink)
    }

    private func findings(_ sink: MemorySink) throws -> [String] {
        let events = sink.events.enumerated().map { i, e in Event(t: Double(i * 10), e.kind, process: e.process, extraFields: e.extraFields) }
        return try Replayer.replay(events: events).findings.map(\.rule.rawValue)
    }

    func testTheConditionsGiveTheReasonAndTheInitialAppPhase() {
        XCTAssertEqual(LaunchConditions(applicationState: .inactive).reason, "user")
        XCTAssertNil(LaunchConditions(applicationState: .inactive).initialAppPhase)
        XCTAssertEqual(LaunchConditions(applicationState: .background).reason, "background")
        XCTAssertEqual(LaunchConditions(applicationState: .background).initialAppPhase, .background)
        let prewarmed = LaunchConditions(applicationState: .inactive, environment: ["ActivePrewarm": "1", "HOME": "/"])
        XCTAssertEqual(prewarmed.reason, "prewarm")
        XCTAssertEqual(prewarmed.initialAppPhase, .background)
        XCTAssertFalse(LaunchConditions(applicationState: .inactive, environment: ["ActivePrewarm": "0"]).prewarmed)
        XCTAssertEqual(ApplicationNotification.allCases.map(\.appPhase), [.active, .inactive, .background, .inactive, nil])
    }

    /// A tap on the icon: `didFinishLaunching` (state inactive), the scene connects, its phase and the
    /// app's go active (`didBecomeActiveNotification`).
    func testALaunchWithUIIsAUserLaunchThatBecomesActive() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive))
        let window = scenes.newWindow()
        window.appear(scene: "main", stored: nil)
        window.phase(.active, stored: nil)
        scenes.application(.didBecomeActive)
        scenes.appPhase(.active)  // the App's scenePhase says the same: recorded once
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(Event.Launch(platform: .iOS, scenes: self.scenes, reason: "user")),
            .open(window: "w1", scene: "main"), .phase(.active, window: "w1"), .phase(.active, window: nil),
        ])
        XCTAssertEqual(try findings(sink), [])
    }

    /// A silent push launches the app in the background: `didFinishLaunching` with state background,
    /// no scene connects (so no scenePhase ever says anything), and the app is suspended. Hours later
    /// the user opens it: `willEnterForeground`, a scene connects, `didBecomeActive`.
    func testABackgroundLaunchRecordsItsReasonAndTheAppLevelPhaseWithoutAnyScene() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(Event.Launch(platform: .iOS, scenes: self.scenes, reason: "background")), .phase(.background, window: nil),
        ])
        scenes.application(.didEnterBackground)  // nothing new
        scenes.application(.willEnterForeground)
        let window = scenes.newWindow()
        window.appear(scene: "main", stored: nil)
        window.phase(.inactive, stored: nil)
        window.phase(.active, stored: nil)
        scenes.application(.didBecomeActive)
        XCTAssertEqual(sink.events.count, 7)
        XCTAssertEqual(try findings(sink), [])
    }

    /// iOS 15 prewarming: the process ran `App.init` long before; `didFinishLaunching` finds
    /// `ActivePrewarm=1`. The launch says `prewarm`, the app is in the background until it becomes active.
    func testAPrewarmedLaunchSaysSoAndStartsInTheBackground() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive, environment: ["ActivePrewarm": "1"]))
        let window = scenes.newWindow()
        window.appear(scene: "main", stored: nil)
        window.phase(.inactive, stored: nil)
        scenes.application(.willEnterForeground)
        window.phase(.active, stored: nil)
        scenes.application(.didBecomeActive)
        XCTAssertEqual(sink.events.first?.kind, .launch(Event.Launch(platform: .iOS, scenes: self.scenes, reason: "prewarm")))
        XCTAssertEqual(sink.events.dropFirst().first?.kind, .phase(.background, window: nil))
        XCTAssertEqual(try findings(sink), [])
    }

    /// A notification-driven quit: `willTerminate` ends the run cleanly and reaches the sink before returning.
    func testWillTerminateEndsTheRunCleanly() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive))
        scenes.application(.didBecomeActive)
        scenes.application(.willTerminate)
        XCTAssertEqual(sink.events.last?.kind, .delegate(callback: "willTerminate", window: nil))
        XCTAssertEqual(try findings(sink), [])
    }
}
