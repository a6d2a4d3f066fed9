import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Replay of trace files runs on two threads (a reader decoding batches, the
/// caller folding them): it must give exactly what one thread gives, at every
/// batch boundary, and stop cleanly when either side fails.
final class PipelinedReplayTests: XCTestCase {
    /// The findings and counts of folding `path`'s events, decoded as public ``LifecycleEvent`` values, on one thread.
    private func oneThread(_ path: String) throws -> ReplayReport {
        var reducer = LifecycleReducer()
        try Trace(path: path).forEachEvent { seq, event in reducer.apply(seq: seq, event) }
        reducer.finish()
        return ReplayReport(trace: path, events: reducer.eventCount, runs: reducer.runCount, findings: reducer.findings)
    }

    func testEveryBatchBoundaryGivesTheOneThreadReport() throws {
        let folder = TemporaryFolder()
        for count in [0, 1, 1023, 1024, 1025, 2048, 5000] {
            let path = folder.file("t\(count).lmdb")
            try TraceInterchange.generate(.init(events: count, seed: UInt64(count) + 1, bugRate: 300), to: path)
            let pipelined = try Replayer.replay(path)
            XCTAssertEqual(pipelined, try oneThread(path), "\(count) events")
            XCTAssertEqual(pipelined.events, UInt64(count))
        }
    }

    func testAFailingCallerStopsTheReaderAndTheNextReplayWorks() throws {
        let folder = TemporaryFolder()
        let path = folder.file("long.lmdb")
        try TraceInterchange.generate(.init(events: 100_000, seed: 4, bugRate: 300), to: path)
        struct Enough: Error {}
        var seen = 0
        XCTAssertThrowsError(try Replayer.replay(path) { _ in
            seen += 1
            if seen == 3 { throw Enough() }
        }) { XCTAssertTrue($0 is Enough, "\($0)") }
        XCTAssertEqual(seen, 3)
        // The reader was stopped, not left blocked: the file replays again, in full.
        XCTAssertEqual(try Replayer.replay(path).events, 100_000)
    }

    func testACallerThatStopsWhileTheReaderIsAheadDoesNotCrash() throws {
        let folder = TemporaryFolder()
        let path = folder.file("long.lmdb")
        try TraceInterchange.generate(.init(events: 100_000, seed: 4, bugRate: 300), to: path)
        struct Enough: Error {}
        // Each time, wait on the first finding until the reader has filled the queue (it is then
        // `depth` batches ahead, waiting for room), then stop: the channel is released with
        // batches handed over and never taken. This used to trap in libdispatch, now and then.
        for _ in 0..<5 {
            XCTAssertThrowsError(try Replayer.replay(path) { _ in
                usleep(50_000)
                throw Enough()
            }) { XCTAssertTrue($0 is Enough, "\($0)") }
        }
    }

    func testDamageMidwayIsReportedWithItsSeqAfterTheEventsBeforeIt() throws {
        let folder = TemporaryFolder()
        let source = folder.file("damaged.lmdb")
        try TraceInterchange.generate(.init(events: 20_000, seed: 6), to: source)
        // Seq 15,000 is in the middle of a batch, several batches in: the reader is ahead of the reducer.
        try overwrite(source, database: "events", key: TraceLayout.seqKey(15_000), with: [99, 1, 2, 3])
        var findings = 0
        XCTAssertThrowsError(try Replayer.replay(source) { _ in findings += 1 }) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .corruptTrace)
            XCTAssertEqual(error?.seq, 15_000)
            XCTAssertEqual(error?.path, source)
        }
    }
}
