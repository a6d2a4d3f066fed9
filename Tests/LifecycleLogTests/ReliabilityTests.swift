import CLMDB
import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Damaged files, faults while recording, and other readers (issue: reliability and interoperability).
final class ReliabilityTests: XCTestCase {
    /// Replaces the stored value of `key` in database `name` (a deliberate corruption).

    func testTheReferenceReaderDecodesTracesFromFORMATmdAlone() throws {
        let folder = TemporaryFolder()
        var traces: [String] = []
        let generated = folder.file("generated.lmdb")
        try TraceInterchange.generate(.init(events: 5000, seed: 12, windows: 6), to: generated)
        traces.append(generated)
        let everyKind = folder.file("every-kind.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("every-kind.jsonl", everyKindTrace.joined(separator: "\n")), to: everyKind)
        traces.append(everyKind)
        let version2 = folder.file("version-2.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("version-2.jsonl", ([#"{"format":"lifecycle-trace","version":2}"#] + FormatVersion2Tests.version2Lines).joined(separator: "\n")), to: version2)
        traces.append(version2)
        traces += try FileManager.default.contentsOfDirectory(atPath: "\(repositoryRoot)/traces/stored")
            .filter { $0.hasSuffix(".lmdb") }.sorted().map { "\(repositoryRoot)/traces/stored/\($0)" }
        for trace in traces {
            let python = try runProgram("/usr/bin/env", ["python3", "\(repositoryRoot)/tools/read_trace.py", trace])
            XCTAssertEqual(python.status, 0, "the reference reader needs python3 and the lmdb package (pip install lmdb): \(python.stderr)")
            let exported = try replay("export", trace)
            XCTAssertEqual(exported.status, 0)
            XCTAssertEqual(python.stdout, exported.stdout, "\(trace): the reference reader and replay disagree")
        }
    }

    func testATraceFromANewerStoredLayoutIsRefusedNamingBothVersions() throws {
        let folder = TemporaryFolder()
        let path = folder.file("future.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", launch()), to: path)
        try overwrite(path, database: "meta", key: Array("layout".utf8), with: [0, 0, 0, 4])
        XCTAssertThrowsError(try Trace(path: path)) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .unsupportedVersion)
            XCTAssertTrue("\(error)".contains("layout 4") && "\(error)".contains("layout 3"), "\(error)")
        }
        let result = try replay(path)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("future.lmdb"), result.stderr)
    }

    func testAnEventThatFailsToDecodeIsNamedBySeqAndSalvageRecoversItFromAnOlderCopyOfItsPage() throws {
        let folder = TemporaryFolder()
        let path = folder.file("damaged.lmdb")
        try TraceInterchange.generate(.init(events: 40, seed: 3), to: path)
        // Bytes that fail to decode, under a checksum that matches them (the decoder's own check).
        let garbage: [UInt8] = [99, 1, 2, 3]
        let check = garbage.withUnsafeBytes { RecordChecksum.trailer(key: 17, $0) }
        try overwrite(path, database: "events", key: TraceLayout.seqKey(17), with: garbage + [check.0, check.1, check.2, check.3])
        let replayed = try replay(path, "--assert")
        XCTAssertEqual(replayed.status, 2)
        XCTAssertTrue(replayed.stderr.contains("damaged.lmdb: seq 17: stored event is damaged"), replayed.stderr)
        let plain = try replay("export", path, "-o", folder.file("all.jsonl"))
        XCTAssertEqual(plain.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("all.jsonl")), "a failed export writes nothing")
        let toStandardOutput = try replay("export", path)
        XCTAssertEqual(toStandardOutput.status, 2)
        XCTAssertEqual(toStandardOutput.stdout, "", "a failed export to standard output prints nothing")
        let salvaged = try replay("export", path, "--salvage", "-o", folder.file("salvaged.jsonl"))
        XCTAssertEqual(salvaged.status, 0, salvaged.stderr)
        // Every event before the damaged one, then the rest from the file's pages. The record was
        // replaced in a later transaction, so the page's older copy, still in the file, holds seq 17
        // as it was first written: nothing is missing.
        XCTAssertTrue(salvaged.stderr.contains("salvaged 40 events: seqs 1–16 read in order, until seq 17"), salvaged.stderr)
        XCTAssertFalse(salvaged.stderr.contains("could not be recovered"), salvaged.stderr)
        let lines = try String(contentsOfFile: folder.file("salvaged.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 41)  // the header and seqs 1–40
        var original: [String] = []
        TraceGenerator.generate(.init(events: 40, seed: 3)) { original.append($0.jsonLine) }
        XCTAssertEqual(lines.dropFirst().map(String.init), original)
    }

    func testADamagedSymbolTableOrMissingDatabaseIsACorruptTraceNotACrash() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        try TraceInterchange.generate(.init(events: 40, seed: 3), to: path)
        try overwrite(path, database: "symbols", key: TraceLayout.symbolKey(2), with: [0xFF, 0xFE])
        XCTAssertThrowsError(try Trace(path: path)) { XCTAssertEqual(($0 as? LifecycleLogError)?.code, .corruptTrace) }
    }

    func testAFullDiskWhileRecordingIsReportedKeepsEveryCommittedEventAndRecordingResumes() throws {
        let folder = TemporaryFolder()
        let path = folder.file("full.lmdb")
        var lines: [String] = []
        TraceGenerator.generate(.init(events: 30_000, seed: 5)) { lines.append($0.jsonLine) }
        let input = folder.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        // A 256 KiB file-size limit stands in for a full disk (the write fails with EFBIG).
        let limited = try runProgram("/bin/bash", ["-c", "ulimit -f 256; exec \"$0\" record \"$1\" --input \"$2\"", replayExecutable, path, input])
        XCTAssertFalse(limited.signaled, "the file-size limit must not kill replay: \(limited.stderr)")
        XCTAssertEqual(limited.status, 2)
        XCTAssertTrue(limited.stderr.contains("full.lmdb"), limited.stderr)
        XCTAssertTrue(limited.stderr.contains("free space and try again"), limited.stderr)
        var stored: [String] = []
        try Trace(path: path).forEachEvent { _, e in stored.append(e.jsonLine) }
        XCTAssertGreaterThan(stored.count, 0)
        XCTAssertLessThan(stored.count, lines.count)
        XCTAssertEqual(stored, Array(lines.prefix(stored.count)), "the committed events must be a prefix of what was sent")
        XCTAssertNoThrow(try Replayer.replay(path))
        // Space returns: recording the rest continues the same trace.
        let rest = folder.write("rest.jsonl", lines[stored.count...].joined(separator: "\n") + "\n")
        let resumed = try replay("record", path, "--input", rest)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        var all: [String] = []
        try Trace(path: path).forEachEvent { _, e in all.append(e.jsonLine) }
        XCTAssertEqual(all, lines)
    }

    func testTheMapGrowsWhileAnotherProcessReads() throws {
        let folder = TemporaryFolder()
        let path = folder.file("growing.lmdb")
        var all: [LifecycleEvent] = []
        TraceGenerator.generate(.init(events: 30_000, seed: 8)) { all.append($0) }
        let writer = try TraceWriter(path: path, sharing: .shared, initialMapSize: 64 * 1024)
        try writer.append(all.prefix(1))
        // Another process exports the trace over and over while this one appends.
        let loop = Process()
        loop.executableURL = URL(fileURLWithPath: "/bin/bash")
        loop.arguments = ["-c", "i=0; while [ ! -e \"$2/stop\" ]; do \"$0\" export \"$1\" > \"$2/read$i.jsonl\" || echo fail > \"$2/failed\"; i=$((i+1)); done",
                          replayExecutable, path, folder.path]
        try loop.run()
        for start in stride(from: 1, to: all.count, by: 250) {
            try writer.append(all[start..<min(start + 250, all.count)])
            usleep(2000)
        }
        _ = FileManager.default.createFile(atPath: folder.file("stop"), contents: nil)
        loop.waitUntilExit()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("failed")), "an export failed while the map grew")
        let expected = all.map(\.jsonLine)
        let reads = folder.contents.filter { $0.hasPrefix("read") }
        XCTAssertGreaterThan(reads.count, 1)
        for read in reads {
            let lines = try String(contentsOfFile: folder.file(read), encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
            XCTAssertEqual(lines, Array(expected.prefix(lines.count)), "\(read): a reader saw something other than a prefix")
        }
        XCTAssertGreaterThan(writer.environment.mapSize, 64 * 1024)
        XCTAssertEqual(try Trace(path: path).eventCount, all.count)
    }

    func testAReaderKilledInsideATransactionDoesNotPinTheWriter() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        // The writer stays open throughout, as a recorder does (with no process
        // holding the file, LMDB resets its reader table on the next open anyway).
        let writer = try TraceWriter(path: path, sharing: .shared)
        try writer.append([LifecycleEvent(t: 0, .mark(label: "start"))])
        // A reader process that holds a read transaction until it is killed.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        reader.arguments = ["python3", "-c", """
            import lmdb, sys, time
            env = lmdb.open(sys.argv[1], subdir=False, readonly=True, max_dbs=8)
            txn = env.begin()
            print("reading", flush=True)
            time.sleep(60)
            """, path]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        _ = out.fileHandleForReading.availableData  // wait until it holds the transaction
        kill(reader.processIdentifier, SIGKILL)
        reader.waitUntilExit()
        let before = try runProgram("/usr/bin/env", ["mdb_stat", "-n", "-r", path])
        XCTAssertTrue(before.stdout.contains(" \(reader.processIdentifier) "), "the dead reader's slot should be there: \(before.stdout)")
        // The writer clears stale readers (mdb_reader_check) when it commits.
        try writer.append([LifecycleEvent(t: 1, .mark(label: "after"))])
        let after = try runProgram("/usr/bin/env", ["mdb_stat", "-n", "-r", path])
        XCTAssertFalse(after.stdout.contains(" \(reader.processIdentifier) "), "the stale reader was not cleared: \(after.stdout)")
    }
}
