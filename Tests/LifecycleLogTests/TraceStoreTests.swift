import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

final class TraceStoreTests: XCTestCase {
    /// Imports `jsonl`, exports it again and returns the exported lines (header dropped).
    private func roundTrip(_ jsonl: String, in folder: TemporaryFolder, mapSize: Int = 64 << 20) throws -> [String] {
        let input = folder.write("in.jsonl", jsonl)
        let output = folder.file("out.lmdb")
        try TraceInterchange.importJSONLines(from: input, to: output, initialMapSize: mapSize)
        var lines: [String] = []
        try TraceInterchange.exportJSONLines(try Trace(path: output)) { lines.append($0) }
        XCTAssertEqual(lines.first, "{\"format\":\"lifecycle-trace\",\"version\":1}\n")
        return lines.dropFirst().map { String($0.dropLast()) }
    }

    /// Compares two JSON texts as values (member order and number spelling aside), via canonical JSON.
    private func canonical(_ line: String) throws -> String {
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { try JSONParser.parse(UnsafeBufferPointer($0)) }.canonicalJSON
    }

    func testSpecExampleRoundTripsEveryField() throws {
        let folder = TemporaryFolder()
        let source = try String(contentsOfFile: "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl", encoding: .utf8)
        let original = source.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"event\"") }
        let exported = try roundTrip(source, in: folder)
        XCTAssertEqual(exported.count, 13)
        XCTAssertEqual(try exported.map(canonical), try original.map(canonical))
    }

    func testEveryEventKindUnknownFieldsUnicodeAndLargeNumbersRoundTrip() throws {
        let folder = TemporaryFolder()
        let lines = everyKindTrace
        let exported = try roundTrip(lines.joined(separator: "\n"), in: folder)
        XCTAssertEqual(exported.count, lines.count)
        for (original, back) in zip(lines, exported) {
            XCTAssertEqual(try canonical(back), try canonical(original), "round trip changed \(original)")
        }
        // Number literals survive exactly, not only as values.
        XCTAssertTrue(exported[1].contains("18446744073709551616"))
        XCTAssertTrue(exported[1].contains("1E+400"))
        XCTAssertTrue(exported[6].contains("9007199254740993"))
        XCTAssertTrue(exported[0].contains("17179869184"))
    }

    func testEmptyTraceRoundTrips() throws {
        let folder = TemporaryFolder()
        XCTAssertEqual(try roundTrip("", in: folder), [])
        XCTAssertEqual(try roundTrip("{\"format\":\"lifecycle-trace\",\"version\":1}\n# nothing yet\n\n", in: folder), [])
        XCTAssertEqual(try Trace(path: folder.file("out.lmdb")).eventCount, 0)
    }

    func testMapGrowsFromATinyMapWithoutLosingOrDuplicatingEvents() throws {
        let folder = TemporaryFolder()
        let writer = try TraceWriter(path: folder.file("tiny.lmdb"), sharing: .exclusive, initialMapSize: 32 * 1024)
        var all: [LifecycleEvent] = []
        TraceGenerator.generate(.init(events: 20_000, seed: 9)) { all.append($0) }
        for chunk in stride(from: 0, to: all.count, by: 500) {
            try writer.append(all[chunk..<min(chunk + 500, all.count)])
        }
        XCTAssertGreaterThan(writer.environment.mapSize, 32 * 1024, "the map should have grown")
        let trace = try Trace(path: folder.file("tiny.lmdb"))
        var read: [LifecycleEvent] = []
        var seqs: [UInt64] = []
        try trace.forEachEvent { seq, event in seqs.append(seq); read.append(event) }
        XCTAssertEqual(seqs, Array(1...20_000))
        XCTAssertEqual(read, all)
    }

    func testAppendingContinuesSeqNumberingAndInterningAcrossOpens() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let first = try events(launch() + "\n" + #"{"event":"open","t":1,"window":"w1","scene":"main"}"#)
        try TraceWriter(path: path).append(first)
        let second = try events(#"{"event":"open","t":2,"window":"w2","scene":"main"}"# + "\n" + #"{"event":"dismiss","t":3,"window":"w1"}"#)
        let writer = try TraceWriter(path: path)
        XCTAssertEqual(writer.lastSeq, 2)
        XCTAssertEqual(try writer.append(second), 4)
        var read: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, e in read.append(e) }
        XCTAssertEqual(read, first + second)
    }

    func testReadingATraceCreatesNoFileAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let path = folder.file("fixture.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", launch()), to: path)
        try FileManager.default.removeItem(atPath: folder.file("in.jsonl"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(folder.contents, ["fixture.lmdb"])
        _ = try Replayer.replay(path)
        var count = 0
        try TraceInterchange.exportJSONLines(try Trace(path: path)) { _ in count += 1 }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(folder.contents, ["fixture.lmdb"], "reading must not leave a -lock file")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testReplayByAnUnprivilegedUserInAReadOnlyFolderLeavesItUntouched() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to switch to an unprivileged user")
        }
        let folder = TemporaryFolder()
        let path = folder.file("fixture.lmdb")
        try TraceInterchange.importJSONLines(
            from: "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl", to: path)
        try runProgram("/bin/chmod", ["0555", folder.path])
        try runProgram("/bin/chmod", ["0444", path])
        try runProgram("/bin/chmod", ["o+rx", URL(fileURLWithPath: folder.path).deletingLastPathComponent().path])
        let result = try runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", replayExecutable, path, "--assert"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains("fixture.lmdb: seq 8: error: [lost-update]"), result.stdout)
        XCTAssertEqual(folder.contents, ["fixture.lmdb"])
    }

    func testAnIndependentReaderSeesEveryEvent() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        try TraceInterchange.generate(.init(events: 1234, seed: 5), to: path)
        let stat = try runProgram("/usr/bin/env", ["mdb_stat", "-n", "-s", "events", path])
        XCTAssertEqual(stat.status, 0, "mdb_stat (Debian's lmdb-utils) must be installed: \(stat.stderr)")
        XCTAssertTrue(stat.stdout.contains("Entries: 1234"), stat.stdout)
        let dump = try runProgram("/usr/bin/env", ["mdb_dump", "-n", "-s", "events", path])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        // mdb_dump prints a header, then a key line and a value line per entry, then DATA=END.
        let body = dump.stdout.components(separatedBy: "HEADER=END\n")[1].components(separatedBy: "DATA=END")[0]
        let dataLines = body.split(separator: "\n")
        XCTAssertEqual(dataLines.count, 2 * 1234)
        XCTAssertEqual(dataLines.first.map(String.init), " 0000000000000001", "keys are big-endian seqs")
        XCTAssertEqual(folder.contents.filter { $0.hasSuffix("-lock") }.count, folder.contents.count - 1, "only mdb_* may add a lock file")
    }

    func testOpeningFilesThatAreNotTracesFailsWithATypedError() throws {
        let folder = TemporaryFolder()
        let cases: [(String, LifecycleLogError.Code)] = [
            (folder.write("empty.lmdb", ""), .notATrace),
            (folder.write("random.lmdb", String(repeating: "not an lmdb file ", count: 600)), .notATrace),
            (folder.file("missing.lmdb"), .io),
        ]
        for (path, code) in cases {
            XCTAssertThrowsError(try Trace(path: path), path) { error in
                let e = error as? LifecycleLogError
                XCTAssertEqual(e?.code, code, "\(path): \(error)")
                XCTAssertEqual(e?.path, path)
            }
        }
        // An LMDB file written by another program, without trace metadata.
        let foreign = folder.file("foreign.lmdb")
        let env = try LMDBEnvironment.open(path: foreign, mode: .readWriteExclusive)
        try env.write { txn in
            let db = try txn.openDatabase("other", create: true)!
            try [UInt8]([1]).withUnsafeBytes { k in try txn.put(db, key: k, value: k, append: false) }
        }
        XCTAssertThrowsError(try Trace(path: foreign)) { XCTAssertEqual(($0 as? LifecycleLogError)?.code, .notATrace) }
        XCTAssertThrowsError(try TraceWriter(path: foreign)) { XCTAssertEqual(($0 as? LifecycleLogError)?.code, .notATrace) }
    }

    func testDamagedRecordsAreReportedNeverTrapped() throws {
        var symbols = SymbolTable()
        var all: [LifecycleEvent] = []
        TraceGenerator.generate(.init(events: 300, seed: 11)) { all.append($0) }
        var random = SplitMix64(seed: 99)
        var decodedOrRejected = 0
        for event in all {
            var w = ByteWriter()
            EventCodec.encode(event, into: &w, symbols: &symbols)
            XCTAssertEqual(try w.bytes.withUnsafeBytes { try EventCodec.decode($0, symbols: symbols) }, event)
            for _ in 0..<20 {
                var damaged = w.bytes
                switch random.next() % 3 {
                case 0: damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                case 1: damaged.removeLast(Int(random.next() % UInt64(damaged.count)) + 1)
                default: damaged.append(UInt8(truncatingIfNeeded: random.next()))
                }
                do {
                    _ = try damaged.withUnsafeBytes { try EventCodec.decode($0, symbols: symbols) }
                } catch let error as LifecycleLogError {
                    XCTAssertEqual(error.code, .corruptTrace)
                }
                decodedOrRejected += 1
            }
        }
        XCTAssertEqual(decodedOrRejected, 300 * 20)
    }

    /// Inputs the fuzzers found; each once trapped the decoder.
    func testFuzzerFindingsDecodeToErrorsNotTraps() throws {
        var symbols = SymbolTable()
        for s in ["library", "WindowGroup", "note", "w1", "w2", "notes", "draft", "Settings", "x", "didBecomeActive", "timer", "focus"] {
            _ = symbols.intern(s)
        }
        let findings: [[UInt8]] = [
            // an open whose string value runs past the end of the record
            [3, 80, 8, 1, 2, 1, 5, 22, 102, 105, 108, 234, 58, 47, 47, 47, 0, 0, 0, 0, 0, 0, 0, 17, 85, 115, 101, 114, 97],
        ]
        for bytes in findings {
            XCTAssertThrowsError(try bytes.withUnsafeBytes { try EventCodec.decode($0, symbols: symbols) }) { error in
                XCTAssertEqual((error as? LifecycleLogError)?.code, .corruptTrace)
            }
        }
    }
}
