import Foundation
import XCTest
@testable import LifecycleLog

/// Traces that change while they are read, and files that cannot be traces:
/// a reader never dies by a signal or blocks, a trace another program
/// appends to reads as an intact prefix, and only a file that really is
/// damaged (here: truncated) is reported, as `corruptTrace`.
final class ChangingTraceTests: XCTestCase {
    private func source(_ folder: TemporaryFolder, events: Int = 20_000) throws -> (path: String, events: [LifecycleEvent]) {
        let path = folder.file("source.lmdb")
        try TraceInterchange.generate(.init(events: events, seed: 5), to: path)
        var read: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, event in read.append(event) }
        return (path, read)
    }

    private func late(_ t: Int) -> LifecycleEvent { LifecycleEvent(t: 1_000_000_000 + Double(t), .phase(.active, window: "late")) }

    func testATraceTruncatedWhileItIsReadIsACorruptTraceErrorNotASignal() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder)
        let trace = try Trace(path: path)
        var read: UInt64 = 0
        // Before the fix the rest of the first batch was read from the map outside the
        // fault guard: SIGBUS in TraceLayout.seq(fromKey:), killing the test process.
        XCTAssertThrowsError(try trace.forEachEvent { seq, _ in
            if seq == 1 { XCTAssertEqual(truncate(path, 3 * 4096), 0) }
            read = seq
        }) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .corruptTrace, "\(String(describing: error))")
            XCTAssertEqual(error?.seq, read + 1)
            XCTAssertTrue(error?.message.contains("changed while it was read") ?? false, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("truncated") ?? false, "\(String(describing: error))")
        }
        XCTAssertLessThan(read, 20_000)
    }

    func testAReplayOfATraceTruncatedWhileItIsReadIsACorruptTraceError() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder)
        let trace = try Trace(path: path)
        var batches = 0
        XCTAssertThrowsError(try trace.decodeBatches(capacity: 64) { _ in
            batches += 1
            if batches == 1 { XCTAssertEqual(truncate(path, 2 * 4096 + 100), 0) }
            return true
        }) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .corruptTrace, "\(error)")
        }
    }

    /// Issue 23, item 3: a reader opened while there was no lock file (so
    /// without one, `MDB_NOLOCK`) is invisible to a writer that starts later;
    /// the writer reuses pages of the reader's snapshot from its third
    /// commit on. The reader must notice and go on from a fresh snapshot.
    func testAReaderOpenedBeforeAWriterStartedReadsItsAppendsAsAnIntactPrefix() throws {
        let folder = TemporaryFolder()
        let (path, export) = try source(folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-lock"))
        let trace = try Trace(path: path)
        var read: [LifecycleEvent] = []
        var writer: TraceWriter?
        var appended = 0
        try trace.forEachEvent { seq, event in
            if seq == 1 {
                // Another recorder starts (its lock file appears) and commits many small transactions.
                writer = try TraceWriter(path: path, initialMapSize: 1 << 30)  // no remap: this thread holds a read transaction
                for i in 0..<200 {
                    try writer?.append((0..<5).map { late(i * 5 + $0) })
                    appended += 5
                }
            }
            XCTAssertEqual(seq, UInt64(read.count + 1))
            read.append(event)
        }
        writer = nil
        XCTAssertEqual(appended, 1_000)
        XCTAssertGreaterThanOrEqual(read.count, 20_000)
        XCTAssertEqual(Array(read.prefix(20_000)), export, "the events read are the trace's, in order")
        XCTAssertEqual(Array(read.dropFirst(20_000)), (0..<(read.count - 20_000)).map { late($0) }, "then what the writer appended, if the reader saw it")
    }

    func testAReaderWithoutTheLockFileThatKeepsBeingOverrunGoesOnThroughTheLockFile() throws {
        let folder = TemporaryFolder()
        let (path, export) = try source(folder, events: 3_000)
        let trace = try Trace(path: path)
        let writer = try TraceWriter(path: path, initialMapSize: 1 << 30)  // no remap: this thread holds a read transaction
        var read = 0
        // Every event read is followed by three commits: each batch of the unregistered
        // snapshot is overrun, until the reader reads through the writer's lock file.
        try trace.forEachEvent { seq, _ in
            if seq <= 3_000 {
                for _ in 0..<3 { try writer.append([late(0)]) }
            }
            read += 1
        }
        XCTAssertGreaterThanOrEqual(read, 3_000)
        XCTAssertEqual(export.count, 3_000)
    }

    func testATraceOfANewerFormatVersionIsRefusedWithAdviceToUpgrade() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder, events: 50)
        try overwrite(path, database: "meta", key: Array("trace-version".utf8), with: [0, 0, 0, 99])
        XCTAssertThrowsError(try Trace(path: path)) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .unsupportedVersion)
            XCTAssertTrue(error?.message.contains("format version 99") ?? false, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("upgrade replay") ?? false, "\(String(describing: error))")
        }
        for arguments in [["export", path], ["stats", path], [path, "--assert"], ["dump", path]] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2, "replay \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("format version 99"), result.stderr)
            XCTAssertFalse(result.stdout.contains("\"version\":99"), "export must not write a header import refuses")
        }
    }

    func testFilesThatAreNotRegularFilesAreNamedForWhatTheyAreAndAFIFOIsNeverOpened() throws {
        let folder = TemporaryFolder()
        let fifo = folder.file("pipe.lmdb")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (path, kind) in [("/dev/zero", "a character device"), ("/dev/urandom", "a character device"), (fifo, "a FIFO")] {
            XCTAssertThrowsError(try Trace(path: path)) { error in
                let error = error as? LifecycleLogError
                XCTAssertEqual(error?.code, .notATrace)
                XCTAssertTrue(error?.message.contains("is \(kind)") ?? false, "\(String(describing: error))")
                XCTAssertFalse(error?.message.contains("empty") ?? true)
            }
        }
        // A command given the FIFO ends (nothing writes to it: opening it would block).
        let result = try runProgram(replayExecutable, ["stats", fifo])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("a FIFO (named pipe), not a regular file"), result.stderr)
    }
}
