import Logging
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogLive

/// Issue 21, item 10: the app's swift-log `Logger` gets what the recorder reports, and the phase
/// signposts follow the scene recorder's callbacks.
final class RecorderLoggingTests: XCTestCase {
    func testFailuresAndMisusesGoToTheAppsLoggerWithTheirPath() throws {
        let handler = CapturingLogHandler()
        LifecycleRecorder.log(to: handler.logger)
        defer {
            LifecycleRecorder.onReport(nil)
            LifecycleRecorder.onMisuse(nil)
        }
        let folder = TemporaryFolder()
        let blocker = folder.file("file")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data()))
        let recorder = LifecycleRecorder(sink: SpoolSink(path: blocker + "/spool.jsonl"))  // a file where its folder should be
        recorder.write(key: "draft", scope: .scene)  // a scene key without its window: a misuse
        recorder.mark("m")
        XCTAssertThrowsError(try recorder.flush())
        let lines = handler.entries.withLock { $0 }
        XCTAssertTrue(lines.contains { $0.level == .warning && $0.message.contains("write event was not recorded") }, "\(lines.map(\.message))")
        XCTAssertTrue(lines.contains { $0.level == .error && $0.metadata["path"] != nil }, "\(lines.map(\.message))")
    }

    func testPhaseSignpostsFollowTheSceneRecordersCallbacks() {
        let recorder = LifecycleRecorder(sink: MemorySink(), durability: .everyEvent, clock: { 0 })
        let scenes = SceneRecorder(recorder, platform: .iPadOS)
        let signposts = PhaseSignposts.start(for: scenes)
        let window = scenes.newWindow()
        let id = window.appear(scene: "main", stored: nil)
        window.phase(.active, stored: id)
        scenes.appPhase(.active)
        XCTAssertEqual(signposts.openIntervals, [id: .active, "app": .active])
        scenes.dismiss(window: id)
        XCTAssertEqual(signposts.openIntervals, ["app": .active])
    }
}
