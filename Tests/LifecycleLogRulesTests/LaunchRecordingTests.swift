import XCTest
@testable import LifecycleLogRules

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
        let events = sink.events.enumerated().map { i, e in LifecycleEvent(t: Double(i * 10), e.kind, process: e.process, extraFields: e.extraFields) }
        return try Replayer.replay(events: events).findings.map(\.rule.rawValue)
    }

    func testTheConditionsGiveTheReasonAndTheInitialAppPhase() {
        XCTAssertEqual(LaunchConditions(applicationState: .inactive).reason, "user")
        XCTAssertNil(LaunchConditions(applicationState: .inactive).initialAppPhase)
        // An app without scenes in the background was launched without UI; with scenes (every
        // SwiftUI app) no scene is connected yet, so only what follows can tell (issue 29, item 5).
        XCTAssertEqual(LaunchConditions(applicationState: .background, usesScenes: false).decidedReason, "background")
        XCTAssertEqual(LaunchConditions(applicationState: .background, usesScenes: false).initialAppPhase, .background)
        XCTAssertNil(LaunchConditions(applicationState: .background).decidedReason)
        // The launch options decide where they can.
        XCTAssertEqual(LaunchConditions(applicationState: .background, launchOptions: ["UIApplicationLaunchOptionsLocationKey"]).decidedReason, "background")
        XCTAssertEqual(LaunchConditions(applicationState: .background, launchOptions: ["UIApplicationLaunchOptionsURLKey"]).decidedReason, "user")
        XCTAssertNil(LaunchConditions(applicationState: .background, launchOptions: ["UIApplicationLaunchOptionsRemoteNotificationKey"]).decidedReason,
                     "a tapped notification and a silent push both bring it")
        // Prewarming is over when the delegate hears of the launch: a fact, not a reason or a phase (item 3).
        let prewarmed = LaunchConditions(applicationState: .inactive, environment: ["ActivePrewarm": "1", "HOME": "/"])
        XCTAssertTrue(prewarmed.prewarmed)
        XCTAssertEqual(prewarmed.reason, "user")
        XCTAssertNil(prewarmed.initialAppPhase)
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
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "user")),
            .open(window: "w1", scene: "main"), .phase(.active, window: "w1"), .phase(.active, window: nil),
        ])
        XCTAssertEqual(try findings(sink), [])
    }

    /// A silent push launches the app in the background: `didFinishLaunching` with state background,
    /// no scene connects (so no scenePhase ever says anything), and the app is suspended. Hours later
    /// the user opens it: `willEnterForeground`, a scene connects, `didBecomeActive`.
    func testABackgroundLaunchRecordsItsReasonAndTheAppLevelPhaseWithoutAnyScene() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background, usesScenes: false))
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "background")), .phase(.background, window: nil),
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

    /// iOS 15 prewarming: the process ran its launch sequence up to `UIApplicationMain` long before;
    /// `didFinishLaunching` finds `ActivePrewarm=1`, and the prewarm is over there. The launch is the
    /// user's, `prewarmed: true`, and starts in the foreground like any other (issue 29, item 3).
    func testAPrewarmedLaunchSaysSoAndStartsAsItsReasonSays() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive, environment: ["ActivePrewarm": "1"]))
        let window = scenes.newWindow()
        window.appear(scene: "main", stored: nil)
        window.phase(.inactive, stored: nil)
        scenes.application(.willEnterForeground)
        window.phase(.active, stored: nil)
        scenes.application(.didBecomeActive)
        XCTAssertEqual(sink.events.first?.kind, .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "user", prewarmed: true)))
        XCTAssertEqual(sink.events.dropFirst().first?.kind, .open(window: "w1", scene: "main"), "no background phase")
        XCTAssertEqual(try findings(sink), [])
    }

    // MARK: Issue 29, item 5: a SwiftUI app's launch, decided by what follows

    /// A tap on the icon of a SwiftUI app: in `didFinishLaunching` no scene is connected and the
    /// application's state says `background`. The launch is held; the scene connecting (its first
    /// window's `onAppear`, or `UIScene.willConnectNotification`) makes it a launch with UI, and it
    /// reaches the sink with what followed it, in order.
    func testASwiftUIAppsTapIsAUserLaunchOnceItsSceneConnects() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        scenes.recorder.write(key: "lastLaunch", scope: .app)  // the app's own code, before any scene
        try scenes.recorder.flush()
        XCTAssertEqual(sink.events.count, 0, "held until the reason is known")
        let window = scenes.newWindow()
        window.appear(scene: "main", stored: nil)
        window.phase(.active, stored: nil)
        scenes.application(.didBecomeActive)
        scenes.launchEvidence(.launchSequenceEnded)  // decided already: nothing
        try scenes.recorder.flush()
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "user")),
            .write(key: "lastLaunch", scope: .app, window: nil, base: nil, document: nil),
            .open(window: "w1", scene: "main"), .phase(.active, window: "w1"), .phase(.active, window: nil),
        ])
        XCTAssertEqual(try findings(sink), [])
    }

    /// A silent push or a background task launches a SwiftUI app: no scene connects, and the
    /// launch sequence ends (the main queue's next turn). A launch without UI, in the background.
    func testASwiftUIAppLaunchedWithoutASceneIsABackgroundLaunch() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        scenes.launchEvidence(.launchSequenceEnded)
        scenes.recorder.write(key: "inbox", scope: .app)
        scenes.recorder.save()
        try scenes.recorder.flush()
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "background")), .phase(.background, window: nil),
            .write(key: "inbox", scope: .app, window: nil, base: nil, document: nil), .save(keys: nil, window: nil, store: nil),
        ])
        XCTAssertEqual(try findings(sink), [])
    }

    /// The recorder checks Apple's order (spec/apple-order.md, A2): a scene that connects right
    /// after the launch sequence ended with none contradicts it. Reported once, in the unified log
    /// and to the live reporter; a scene connecting later (the user opening an app launched in the
    /// background) is not reported.
    func testASceneConnectingAtOnceAfterTheLaunchSequenceEndedIsReportedOnce() throws {
        let reports = Locked<[String]>([])
        SceneRecorder.assumptionReporter.withLock { $0 = { message in reports.withLock { $0.append(message) } } }
        defer { SceneRecorder.assumptionReporter.withLock { $0 = nil } }
        var decision = LaunchReasonDecision(LaunchConditions(applicationState: .background))
        XCTAssertEqual(decision.observe(.launchSequenceEnded, at: 10), "background")
        XCTAssertNil(decision.observe(.sceneWillConnect, at: 10.2))
        XCTAssertNotNil(decision.contradiction)
        var later = LaunchReasonDecision(LaunchConditions(applicationState: .background))
        _ = later.observe(.launchSequenceEnded, at: 10)
        _ = later.observe(.sceneWillConnect, at: 10 + LaunchReasonDecision.atOnce + 3600)
        XCTAssertNil(later.contradiction, "the user opened it later")
        var pushed = LaunchReasonDecision(LaunchConditions(applicationState: .background))
        _ = pushed.observe(.backgroundWork, at: 10)
        _ = pushed.observe(.foreground, at: 10.1)
        XCTAssertNil(pushed.contradiction, "background work said so; the user may open it at any time")
        // Through the scene recorder: reported once.
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        scenes.launchEvidence(.launchSequenceEnded)
        scenes.launchEvidence(.sceneWillConnect)
        scenes.launchEvidence(.sceneWillConnect)
        XCTAssertEqual(reports.withLock { $0.count }, 1)
        XCTAssertTrue(reports.withLock { $0.first ?? "" }.contains("a scene connected"))
        // In the trace too, as a diagnostic, which replay reports (and nothing else: the run is a
        // background launch, which slow-launch does not judge).
        let diagnostics = sink.events.compactMap { if case .diagnostic(let check, let message, _) = $0.kind { (check, message) } else { nil } }
        XCTAssertEqual(diagnostics.map(\.0), ["A2"])
        XCTAssertTrue(diagnostics.first?.1.contains("a scene connected") ?? false)
        XCTAssertEqual(try findings(sink), ["unexpected-callback-order"])
    }

    /// spec/apple-order.md, W1/W3/W7: a window opens (its root view's `onAppear`) before it closes.
    /// A close of a window that never opened contradicts it, and is reported; it records nothing.
    /// A close of a window closed before (a second `willClose`) is not reported again.
    func testACloseOfAWindowThatNeverOpenedIsReported() throws {
        let reports = Locked<[String]>([])
        SceneRecorder.assumptionReporter.withLock { $0 = { message in reports.withLock { $0.append(message) } } }
        defer { SceneRecorder.assumptionReporter.withLock { $0 = nil } }
        let (scenes, sink) = make()
        scenes.launch(platform: .macOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive))
        let unseen = scenes.newWindow()
        unseen.close()  // no id: its view never appeared
        let phased = scenes.newWindow()
        phased.phase(.active, stored: nil)  // an id, but no onAppear
        phased.close()
        let normal = scenes.newWindow()
        normal.appear(scene: "main", stored: nil)
        normal.close()
        normal.close()  // a second willClose: closed before, not reported
        XCTAssertEqual(reports.withLock { $0.count }, 1, "once per check and run: " + reports.withLock { $0 }.joined(separator: "\n"))
        XCTAssertTrue(reports.withLock { $0.allSatisfy { $0.contains("spec/apple-order.md, W7") } })
        XCTAssertEqual(sink.events.map(\.kind).filter { if case .dismiss = $0 { true } else { false } }.count, 1, "only the opened window's close is recorded")
        XCTAssertEqual(sink.events.map(\.kind).filter { if case .diagnostic(check: "W7", _, _) = $0 { true } else { false } }.count, 1)
        XCTAssertEqual(try findings(sink), ["unexpected-callback-order"])
        // A new run checks again.
        scenes.launch(platform: .macOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .inactive))
        scenes.newWindow().close()
        XCTAssertEqual(reports.withLock { $0.count }, 2)
    }

    /// A held launch is not held forever: the app ending (an urgent event) or more than
    /// `maxEventsAfterHeldLaunch` events give it its fallback reason, `background`, in order.
    func testAHeldLaunchGetsItsFallbackWhenTheAppEndsOrNothingDecides() throws {
        let (scenes, sink) = make()
        scenes.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        scenes.application(.willTerminate)
        XCTAssertEqual(sink.events.map(\.kind), [
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "background")), .phase(.background, window: nil),
            .delegate(callback: "willTerminate", window: nil),
        ], "committed before willTerminate returns")
        let (busy, busySink) = make()
        busy.launch(platform: .iOS, scenes: self.scenes, conditions: LaunchConditions(applicationState: .background))
        for i in 0...LifecycleRecorder.maxEventsAfterHeldLaunch { busy.recorder.mark("m\(i)") }
        try busy.recorder.flush()
        XCTAssertEqual(busySink.events.count, 2 + LifecycleRecorder.maxEventsAfterHeldLaunch + 1)
        XCTAssertEqual(busySink.events.first?.kind, .launch(LifecycleEvent.Launch(platform: .iOS, scenes: self.scenes, reason: "background")))
        busy.launchEvidence(.sceneWillConnect)  // too late to change what was written: nothing
        try busy.recorder.flush()
        XCTAssertEqual(busySink.events.count, 2 + LifecycleRecorder.maxEventsAfterHeldLaunch + 1)
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
