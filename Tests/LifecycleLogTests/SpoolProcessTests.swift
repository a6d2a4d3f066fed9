import Foundation
import XCTest
@testable import LifecycleLog

/// Issue 30, item 1: a `CollectorSink`'s fallback spool says which process its events are about, as
/// the collector's trace does (the collector fills it in from the handshake). A widget that never
/// reached the collector is merged as the widget, not as the main app.
final class SpoolProcessTests: XCTestCase {
    func testAWidgetsFallbackSpoolNamesItsProcessAndMergesAsTheWidget() throws {
        let folder = TemporaryFolder()
        // A port nobody listens on: a collector's, after it stopped.
        let gone = try RunningCollector(path: folder.file("gone.lmdb"))
        let port = gone.port
        try gone.stop()

        let spool = folder.file("widget.jsonl")
        let sink = CollectorSink(host: "127.0.0.1", port: port, token: nil, process: "com.example.notes.widget", kind: .widget,
                                 fallback: SpoolSink(path: spool), retryInterval: .seconds(60), ackTimeout: .seconds(2))
        let recorder = LifecycleRecorder(sink: sink, durability: .batched(maxDelayMilliseconds: 5, maxEvents: 64))
        recorder.launch(platform: .iOS, scenes: [], reason: "background")
        recorder.write(key: "widgetConfig", scope: .group)
        recorder.save()
        recorder.terminate()
        try recorder.flush()
        try recorder.close()

        let spooled = try String(contentsOfFile: spool, encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(spooled.count, 4)
        for line in spooled { XCTAssertTrue(line.contains(#""process":"com.example.notes.widget""#), String(line)) }

        // The app's own trace (its collector never heard from the widget), then the merge.
        let app = folder.file("app.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("app.jsonl", """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":1,"window":"w1","scene":"main"}
            {"event":"phase","t":2,"window":"w1","phase":"active"}

            """), to: app)
        let merged = folder.file("merged.lmdb")
        _ = try TraceInterchange.merge(trace: app, spools: [spool], to: merged)
        let events = try storedEvents(merged)
        XCTAssertEqual(events.filter { $0.process == "com.example.notes.widget" }.count, 4)
        let result = try replay(merged, "--format", "json")
        XCTAssertFalse(result.stdout.contains("event-before-launch"), "the widget's events are not the main app's: \(result.stdout)")
    }
}
