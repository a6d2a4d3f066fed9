import XCTest
@testable import LifecycleLog

/// One validation of events (issue 20.3): the recorder, the JSON Lines decoder and the trace
/// writer check events the same way, so a session replays identically whichever sink recorded it.
final class OneValidationTests: XCTestCase {
    /// A session with misuses among its calls: a scene key without its window, a `document` member
    /// on a shared key, a document key with neither document nor window, a negative signal.
    static func record(into recorder: LifecycleRecorder) {
        recorder.launch(platform: .iPadOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        recorder.open(window: "w1", scene: "main")
        recorder.phase(.active, window: "w1")
        recorder.write(key: "draft", scope: .scene)                                   // misuse
        recorder.write(key: "draft", scope: .scene, window: "w1")
        recorder.write(key: "notes", scope: .shared, window: "w1", document: "file:///n")  // misuse
        recorder.write(key: "title", scope: .document)                                // misuse
        recorder.write(key: "notes", scope: .shared, window: "w1")
        recorder.phase(.inactive, window: "w1")
        recorder.phase(.background, window: "w1")
        recorder.record(.kill(reason: "watchdog", signal: -9))                        // misuse
        recorder.phase(.inactive, window: "w1")
        recorder.terminate()
    }

    func testASessionReplaysIdenticallyWhicheverSinkRecordedIt() throws {
        let folder = TemporaryFolder()
        let tick: LifecycleRecorder.Clock = { 0 }
        let memory = MemorySink()
        let spoolPath = folder.file("session.jsonl")
        let tracePath = folder.file("session.lmdb")
        let sinks: [any RecordingSink] = [memory, SpoolSink(path: spoolPath), try TraceFileSink(path: tracePath)]
        for sink in sinks {
            let recorder = LifecycleRecorder(sink: sink, durability: .everyEvent, clock: tick)
            Self.record(into: recorder)
            XCTAssertEqual(recorder.lastError?.code, .invalidInput, "\(sink.destination): the misuse is reported")
            try recorder.close()
        }
        let reports = [
            try Replayer.replay(events: memory.events, trace: "session"),
            try Replayer.replay(spoolPath),
            try Replayer.replay(tracePath),
        ]
        XCTAssertEqual(memory.events.count, 9, "the four misuses were not recorded")
        for report in reports {
            XCTAssertEqual(report.events, 9)
            XCTAssertEqual(report.findings.map(ReplayReport.jsonFinding), reports[0].findings.map(ReplayReport.jsonFinding))
        }
        XCTAssertEqual(reports[0].findings.map(\.rule), [.missedBackgroundSave], "the valid writes are what the rules see")
    }

    func testTheTraceWriterRefusesAnInvalidEventAndStoresNothingOfItsBatch() throws {
        let folder = TemporaryFolder()
        let path = folder.file("w.lmdb")
        do {
        let writer = try TraceWriter(path: path)
        try writer.append([LifecycleEvent(t: 0, .mark(label: "first"))])
        XCTAssertThrowsError(try writer.append([LifecycleEvent(t: 1, .mark(label: "ok")), LifecycleEvent(t: 2, .write(key: "draft", scope: .scene))])) { error in
            let e = error as? LifecycleLogError
            XCTAssertEqual(e?.code, .invalidInput)
            XCTAssertEqual(e?.message, "event 2 of the batch (write) is not valid and nothing of the batch was stored: a write of a scene-scoped key needs \"window\" (the window that owns the key)")
        }
        XCTAssertThrowsError(try writer.append([LifecycleEvent(t: -.infinity, .mark(label: "x"))]))
        }
        XCTAssertEqual(try Trace(path: path).eventCount, 1)
    }
}
