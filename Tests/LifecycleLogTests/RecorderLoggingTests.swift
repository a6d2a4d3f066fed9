import Logging
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogLive

/// Issue 21, item 10: the app's swift-log `Logger` gets what the recorder reports, and the phase
/// signposts follow the scene recorder's callbacks.
final class RecorderLoggingTests: XCTestCase {
    private final class Handler: LogHandler, @unchecked Sendable {
        let lines = Locked<[(Logger.Level, String, Logger.Metadata?)]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.withLock { $0.append((event.level, "\(event.message)", event.metadata)) } }
    }

    func testFailuresAndMisusesGoToTheAppsLoggerWithTheirPath() throws {
        let handler = Handler()
        LifecycleRecorder.log(to: Logger(label: "test") { _ in handler })
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
        let lines = handler.lines.withLock { $0 }
        XCTAssertTrue(lines.contains { $0.0 == .warning && $0.1.contains("write event was not recorded") }, "\(lines.map(\.1))")
        XCTAssertTrue(lines.contains { $0.0 == .error && $0.2?["path"] != nil }, "\(lines.map(\.1))")
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
