import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Issue 28, item 5: bit rot is never silent. Layout 3 ends every event record and symbol with a
/// checksum of its bytes and key (FORMAT.md, "Checksums"): a changed event is refused, named by
/// its seq, exit 2, and salvage never presents it as recovered. Real trace files, changed on disk.
final class ChecksumTests: XCTestCase {
    private static let needle = "needle-0123456789"

    /// A new trace with a `mark` whose label is easy to find in the file's bytes, at seq 3.
    private func trace(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("t.lmdb")
        let lines = [
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
            #"{"event":"open","t":1,"window":"window-needle-abcdef","scene":"main"}"#,
            #"{"event":"mark","t":2,"label":"\#(Self.needle)"}"#,
            #"{"event":"phase","t":3,"window":"window-needle-abcdef","phase":"active"}"#,
        ]
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", lines.joined(separator: "\n") + "\n"), to: path)
        return path
    }

    private func flip(_ path: String, at offset: Int, bit: Int) throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[offset] ^= UInt8(1 << bit)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func offset(of text: String, in path: String) throws -> Int {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(text.utf8)
        let found = (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
        return try XCTUnwrap(found, "\(text) not in the file")
    }

    func testEveryBitOfAnEventRecordAndItsChecksumIsCovered() throws {
        let folder = TemporaryFolder()
        let original = try trace(in: folder)
        let intact = try Data(contentsOf: URL(fileURLWithPath: original))
        let start = try offset(of: Self.needle, in: original)
        // The record: tag, time, label length, the label, the extras count, then the 4-byte check.
        let recordStart = start - 3, recordEnd = start + Self.needle.utf8.count + 1 + RecordChecksum.size
        for offset in recordStart..<recordEnd {
            for bit in 0..<8 {
                try intact.write(to: URL(fileURLWithPath: original))
                try flip(original, at: offset, bit: bit)
                XCTAssertThrowsError(try storedEvents(original), "byte \(offset - recordStart) bit \(bit) went unnoticed") { error in
                    let error = error as? LifecycleLogError
                    XCTAssertEqual(error?.code, .corruptTrace)
                    XCTAssertEqual(error?.seq, 3, "named by its seq")
                }
            }
        }
    }

    func testAChangedEventFailsReplayAndExportWithExit2NamingItsSeqAndSalvageLeavesItOut() throws {
        let folder = TemporaryFolder()
        let path = try trace(in: folder)
        try flip(path, at: try offset(of: Self.needle, in: path) + 4, bit: 0)  // "needle-0…" becomes "needme-0…"
        for (arguments, result) in [("replay --assert", try replay(path, "--assert")), ("export", try replay("export", path)), ("stats", try replay("stats", path))] {
            XCTAssertEqual(result.status, 2, arguments)
            XCTAssertTrue(result.stderr.contains("seq 3") && result.stderr.contains("fails its checksum") && result.stderr.contains("t.lmdb"), result.stderr)
            XCTAssertFalse(result.stdout.contains("needme"), "the changed label is never shown")
        }
        var salvaged = ""
        let summary = try TraceInterchange.salvageJSONLines(path: path) { salvaged += $0 }
        XCTAssertFalse(salvaged.contains("needme"), "salvage never presents a changed event as recovered")
        XCTAssertFalse(salvaged.contains(Self.needle))
        XCTAssertEqual(summary.readInOrder, 2)
        XCTAssertEqual(summary.missing, [3...3])
        XCTAssertTrue(salvaged.contains(#""phase":"active""#), "the events after it are recovered from the pages")
    }

    func testARenamedWindowIsCaughtByItsSymbolsChecksum() throws {
        let folder = TemporaryFolder()
        let path = try trace(in: folder)
        try flip(path, at: try offset(of: "window-needle-abcdef", in: path) + 3, bit: 1)
        XCTAssertThrowsError(try storedEvents(path)) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .corruptTrace)
            XCTAssertTrue("\(error)".contains("fails its checksum"), "\(error)")
        }
    }

    func testARecordMovedUnderAnotherSeqFails() {
        let record: [UInt8] = [11, 4, 6, 104, 101, 108, 108, 111, 0]
        record.withUnsafeBytes { bytes in
            XCTAssertNotEqual(RecordChecksum.of(key: 3, bytes), RecordChecksum.of(key: 4, bytes))
        }
    }

    /// Any single flipped bit of a value, of any length up to 64 bytes, changes its check: the
    /// 64-bit state always differs (FORMAT.md), and the fold to 32 bits keeps it here.
    func testEverySingleBitFlipChangesTheCheck() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let value = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let check = value.withUnsafeBytes { RecordChecksum.of(key: 7, $0) }
            for i in value.indices {
                for bit in 0..<8 {
                    var changed = value
                    changed[i] ^= UInt8(1 << bit)
                    XCTAssertNotEqual(changed.withUnsafeBytes { RecordChecksum.of(key: 7, $0) }, check, "length \(length), byte \(i), bit \(bit)")
                }
            }
        }
    }

    func testTracesOfEarlierLayoutsStillReadAndKeepTheirLayoutWhenAppendedTo() throws {
        let folder = TemporaryFolder()
        for name in ["macos-editor-quit", "group-widget-layout2"] {
            let path = folder.file("\(name).lmdb")
            try FileManager.default.copyItem(atPath: "\(repositoryRoot)/traces/stored/\(name).lmdb", toPath: path)
            let before = try storedEvents(path)
            let writer = try TraceWriter(path: path)
            try writer.append([LifecycleEvent(t: 90_000_000, .mark(label: "appended"))])
            XCTAssertEqual(try storedEvents(path), before + [LifecycleEvent(t: 90_000_000, .mark(label: "appended"))])
            XCTAssertFalse(try Trace(path: path).databases.checksummed, "\(name) keeps its layout")
        }
    }
}
