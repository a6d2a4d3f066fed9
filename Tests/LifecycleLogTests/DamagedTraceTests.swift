import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Damage that liblmdb detects with its own assertions (which abort the
/// process) rather than by faulting: zeroed pages, rewritten child pointers,
/// a damaged free-page list. Every reading command must turn it into
/// `corruptTrace` (exit 2, the file named), `--salvage` must recover what the
/// file still holds, and a writer must refuse such a file before its first write.
final class DamagedTraceTests: XCTestCase {
    /// A generated trace big enough for branch pages, and its export.
    private func source(_ folder: TemporaryFolder, events: Int = 20_000) throws -> (path: String, export: [String]) {
        let path = folder.file("source.lmdb")
        try TraceInterchange.generate(.init(events: events, seed: 11), to: path)
        var lines: [String] = []
        try TraceInterchange.exportJSONLines(try Trace(path: path)) { lines.append($0) }
        return (path, lines)
    }

    func testAZeroedLeafIsACorruptTraceErrorInProcessNotAnAbort() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder)
        var pages = try LMDBPages(path)
        let leaf = try XCTUnwrap(pages.eventLeaves.dropFirst(pages.eventLeaves.count / 2).first)
        pages.zero(leaf.page)
        let damaged = try pages.write(folder.file("zeroed.lmdb"))
        // Without the assertion guard this aborts the test process ('IS_LEAF(mp)' in mdb_cursor_next).
        XCTAssertThrowsError(try Trace(path: damaged).forEachEvent { _, _ in }) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .corruptTrace)
            XCTAssertEqual(error?.seq, leaf.first)
            XCTAssertTrue(error?.message.contains("liblmdb found a broken page") ?? false, "\(String(describing: error))")
        }
    }

    func testEveryReadingCommandReportsAssertionDamageWithExitTwoAndTheFileNamed() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder)
        var variants: [String] = []
        var pages = try LMDBPages(path)
        pages.zero(pages.eventLeaves[pages.eventLeaves.count / 3].page)
        variants.append(try pages.write(folder.file("zeroed.lmdb")))
        for (i, target) in [UInt64(0), 1, 3, 1 << 40].enumerated() {
            var pages = try LMDBPages(path)
            pages.setChild(ofBranch: try XCTUnwrap(pages.eventBranches.first), node: 1, to: target)
            variants.append(try pages.write(folder.file("child\(i).lmdb")))
        }
        for damaged in variants {
            for arguments in [[damaged, "--assert"], ["export", damaged], ["stats", damaged], [damaged, "--state"],
                              ["dump", damaged]] {
                let result = try runProgram(replayExecutable, arguments)
                XCTAssertFalse(result.signaled, "replay \(arguments) crashed: \(result.stderr)")
                XCTAssertEqual(result.status, 2, "replay \(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("replay: error: \(damaged)"), result.stderr)
                XCTAssertEqual(result.stdout, "", "nothing is printed before the error")
            }
        }
        XCTAssertEqual(folder.contents.filter { !$0.hasSuffix(".lmdb") }, [], "nothing is created beside the inputs")
    }

    func testSalvageRecoversEveryEventOutsideAZeroedLeafAndNamesTheMissingSeqs() throws {
        let folder = TemporaryFolder()
        let (path, export) = try source(folder)
        var pages = try LMDBPages(path)
        let leaf = pages.eventLeaves[pages.eventLeaves.count / 2]
        pages.zero(leaf.page)
        let damaged = try pages.write(folder.file("zeroed.lmdb"))
        var lines: [String] = []
        let summary = try TraceInterchange.salvageJSONLines(path: damaged) { lines.append($0) }
        // Every event but the zeroed leaf's, in order (the header is line 0, seq N is line N).
        let expected = Array(export[..<Int(leaf.first)]) + Array(export[Int(leaf.last + 1)...])
        XCTAssertEqual(lines, expected)
        XCTAssertEqual(summary.readInOrder, leaf.first - 1)
        XCTAssertEqual(summary.missing, [leaf.first...leaf.last])
        XCTAssertEqual(summary.lastSeq, 20_000)
        XCTAssertTrue(summary.description.contains("seqs \(leaf.first)–\(leaf.last)"), summary.description)
    }

    func testSalvageWalksPastABranchWhoseChildPointerIsBroken() throws {
        let folder = TemporaryFolder()
        let (path, export) = try source(folder)
        var pages = try LMDBPages(path)
        pages.setChild(ofBranch: try XCTUnwrap(pages.eventBranches.first), node: 1, to: 1 << 40)
        let damaged = try pages.write(folder.file("child.lmdb"))
        XCTAssertThrowsError(try Trace(path: damaged).forEachEvent { _, _ in })
        var lines: [String] = []
        let summary = try TraceInterchange.salvageJSONLines(path: damaged) { lines.append($0) }
        // A broken pointer loses no leaf: every event is still in the file's pages.
        XCTAssertEqual(lines, export)
        XCTAssertFalse(summary.isWhole)
        XCTAssertEqual(summary.missing, [])
    }

    func testSalvageRecoversTheExactPrefixOfATruncatedFile() throws {
        let folder = TemporaryFolder()
        let (path, export) = try source(folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = folder.file("truncated.lmdb")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        let replayed = try replay(truncated, "--assert")
        XCTAssertEqual(replayed.status, 2)
        XCTAssertTrue(replayed.stderr.contains("export --salvage"), "the error says how to recover: \(replayed.stderr)")
        let salvaged = try replay("export", "--salvage", truncated, "-o", folder.file("recovered.jsonl"))
        XCTAssertEqual(salvaged.status, 0, salvaged.stderr)
        let recovered = try String(contentsOfFile: folder.file("recovered.jsonl"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { String($0) + "\n" }
        XCTAssertGreaterThan(recovered.count, export.count / 2, "most of a file cut at two thirds is recovered")
        XCTAssertEqual(recovered, Array(export.prefix(recovered.count)), "an exact prefix, nothing invented")
        XCTAssertTrue(salvaged.stderr.contains("could not be found"), salvaged.stderr)
    }

    func testAWriterRefusesATraceWhoseFreePageListIsDamagedAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder, events: 5_000)
        var pages = try LMDBPages(path)
        try pages.breakFreeList()
        let damaged = try pages.write(folder.file("freelist.lmdb"))
        let before = try Data(contentsOf: URL(fileURLWithPath: damaged))
        XCTAssertThrowsError(try LifecycleRecorder(path: damaged)) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .corruptTrace)
            XCTAssertEqual(error?.path, damaged)
            XCTAssertTrue(error?.message.contains("record into a new file") ?? false, "\(String(describing: error))")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: damaged)), before, "nothing was written")
        try assertRecordRefuses(damaged, saying: "free pages is damaged")
    }

    /// A file whose meta page claims that the free-page list has duplicate keys
    /// (from `scripts/damage-campaign`): readers are unaffected, but liblmdb
    /// asserted (`mx != NULL` in `mdb_cursor_init`) inside `replay record`'s write.
    func testAWriterRefusesAMetaPageWhoseDatabaseFlagsAreDamaged() throws {
        let folder = TemporaryFolder()
        let path = try unzipRegressionFile("meta-flags", into: folder)
        XCTAssertEqual(try replay(path).status, 0, "reading needs no duplicate keys")
        try assertRecordRefuses(path, saying: "meta page is damaged")
    }

    /// A file whose newest meta page points the database of databases at a stale
    /// copy from the file's first transaction, a tree that reads as an empty trace:
    /// `replay record` appended to it and died in `mdb_cursor_put` (SIGSEGV). The
    /// pages no longer add up, and the writer refuses it.
    func testAWriterRefusesAMetaPageThatPointsAtAStaleTree() throws {
        let folder = TemporaryFolder()
        let path = try unzipRegressionFile("stale-root", into: folder)
        try assertRecordRefuses(path, saying: "pages do not add up")
        // A whole trace adds up, also after appends and map growth.
        let whole = folder.file("whole.lmdb")
        try TraceInterchange.generate(.init(events: 3_000, seed: 2), to: whole)
        for round in 0..<3 {
            let writer = try TraceWriter(path: whole, initialMapSize: 1 << 16)
            try writer.append((0..<500).map { LifecycleEvent(t: Double(10_000_000 + round * 1000 + $0), .mark(label: "r\(round) \($0)")) })
        }
        XCTAssertEqual(try Trace(path: whole).eventCount, 4_500)
    }

    /// A file whose meta page's transaction id was damaged to above 2^63: the
    /// writer's open check converted it and trapped. Wrapping arithmetic and
    /// the pages' accounting refuse it instead.
    func testAWriterRefusesATransactionIdDamagedBeyondIntWithoutTrapping() throws {
        let folder = TemporaryFolder()
        let path = try unzipRegressionFile("huge-txnid", into: folder)
        try assertRecordRefuses(path, saying: "pages do not add up")
    }

    /// A file with 40 bytes flipped across its pages, one of them in an event's
    /// key: salvage trapped on the gap that key made. Keys are dense, so a leaf's
    /// records are a run of consecutive seqs and a damaged key is left out.
    func testSalvageLeavesOutAKeyDamagedIntoAnotherNumber() throws {
        let folder = TemporaryFolder()
        let path = try unzipRegressionFile("flipped-key", into: folder)
        let salvaged = try replay("export", "--salvage", path, "-o", folder.file("out.jsonl"))
        XCTAssertFalse(salvaged.signaled, salvaged.stderr)
        XCTAssertEqual(salvaged.status, 0, salvaged.stderr)
        var count = 0
        let summary = try TraceInterchange.salvageJSONLines(path: path) { _ in count += 1 }
        XCTAssertEqual(summary.events, 19_972)
        XCTAssertEqual(summary.lastSeq, 20_000)
        XCTAssertEqual(summary.missing.reduce(0) { $0 + $1.count }, 28, "only the records whose own bytes were hit")
    }

    /// A zeroed leaf in the middle of the events is not on the path a write takes:
    /// `replay record` appended to it and exited 0 (issue 22: 9).
    func testAWriterRefusesATraceWithAZeroedLeafInTheMiddle() throws {
        let folder = TemporaryFolder()
        let (path, _) = try source(folder)
        var pages = try LMDBPages(path)
        pages.zero(pages.eventLeaves[pages.eventLeaves.count / 2].page)
        let damaged = try pages.write(folder.file("zeroed.lmdb"))
        try assertRecordRefuses(damaged, saying: "record into a new file")
    }

    /// A trace missing seqs (a record gone, the last seq beyond the count) was appended to (issue 22: 9).
    func testAWriterRefusesATraceWithAGapInItsSeqs() throws {
        let folder = TemporaryFolder()
        let path = folder.file("gap.lmdb")
        try TraceInterchange.generate(.init(events: 50, seed: 3), to: path)
        do {
            // A stored event put 2 past the last seq, as if seq 51 had been lost.
            let environment = try LMDBEnvironment.open(path: path, mode: .readWriteExclusive)
            try environment.write { txn in
                let dbs = try TraceDatabases.open(in: txn, path: path)
                let stored = try TraceLayout.seqKey(50).withUnsafeBytes { k in try txn.get(dbs.events, key: k) { Array($0) } }
                // Its own checksum, for seq 52: only the gap is wrong.
                let body = Array(try XCTUnwrap(stored).dropLast(RecordChecksum.size))
                let check = body.withUnsafeBytes { RecordChecksum.trailer(key: 52, $0) }
                try TraceLayout.seqKey(52).withUnsafeBytes { k in
                    try (body + [check.0, check.1, check.2, check.3]).withUnsafeBytes { v in try txn.put(dbs.events, key: k, value: v, append: true) }
                }
            }
        }
        try assertRecordRefuses(path, saying: "its last seq is 52")
        XCTAssertThrowsError(try TraceWriter(path: path)) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .corruptTrace)
        }
    }

    /// `replay record` on the damaged trace at `path`: refused with exit 2 and
    /// a message containing `text`, no signal, and the file left byte for byte.
    private func assertRecordRefuses(_ path: String, saying text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let recorded = try replay("record", path, stdin: launch() + "\n")
        XCTAssertFalse(recorded.signaled, recorded.stderr, file: file, line: line)
        XCTAssertEqual(recorded.status, 2, recorded.stderr, file: file, line: line)
        XCTAssertTrue(recorded.stderr.contains(text), recorded.stderr, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "nothing was written", file: file, line: line)
    }

    private func unzipRegressionFile(_ name: String, into folder: TemporaryFolder) throws -> String {
        let path = folder.file("\(name).lmdb")
        let unzipped = try runProgram("/bin/sh", ["-c", "gzip -dc '\(repositoryRoot)/Tests/DamagedTraces/\(name).lmdb.gz' > '\(path)'"])
        XCTAssertEqual(unzipped.status, 0, unzipped.stderr)
        return path
    }

    /// Files that aborted `replay` before the assertion guard: a zeroed page and
    /// a rewritten child pointer, from `scripts/damage-campaign` on a
    /// 20,000-event trace (`replay generate --events 20000 --seed 1`).
    func testTheRegressionFilesThatAbortedBeforeAreReportedAndSalvaged() throws {
        let folder = TemporaryFolder()
        let cases: [(name: String, salvaged: UInt64, missing: [ClosedRange<UInt64>])] = [
            ("zeroed-leaf", 19_863, [4_325...4_461]),
            ("child-pointer", 20_000, []),
        ]
        for item in cases {
            let path = try unzipRegressionFile(item.name, into: folder)
            for arguments in [[path, "--assert"], ["export", path], ["stats", path]] {
                let result = try runProgram(replayExecutable, arguments)
                XCTAssertFalse(result.signaled, "replay \(arguments) crashed: \(result.stderr)")
                XCTAssertEqual(result.status, 2, result.stderr)
                XCTAssertTrue(result.stderr.contains("liblmdb found a broken page"), result.stderr)
            }
            var count = 0
            let summary = try TraceInterchange.salvageJSONLines(path: path) { _ in count += 1 }
            XCTAssertEqual(summary.events, item.salvaged, item.name)
            XCTAssertEqual(UInt64(count - 1), item.salvaged, item.name)
            XCTAssertEqual(summary.missing, item.missing, item.name)
        }
    }
}

/// The pages of a trace file, read and damaged the way `scripts/damage-campaign`
/// does (LMDB 0.9's 64-bit layout, FORMAT.md "Pages").
private struct LMDBPages {
    var bytes: [UInt8]
    let pageSize = 4096

    struct Leaf { var page: Int; var first: UInt64; var last: UInt64 }

    init(_ path: String) throws { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    private func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
    private func flags(_ page: Int) -> Int { u16(page * pageSize + 10) }
    private func nodes(_ page: Int) -> [Int] {
        let base = page * pageSize
        return (0..<((u16(base + 12) - 16) / 2)).map { base + u16(base + 16 + 2 * $0) }
    }
    private var newestMeta: Int { u64(4096 + 16 + 128) > u64(16 + 128) ? 4096 : 0 }

    /// Pages reachable from a root, by walking branch pages.
    private func tree(_ root: UInt64) -> [Int] {
        var out: [Int] = [], stack = [Int(root)]
        while let page = stack.popLast() {
            out.append(page)
            if flags(page) & 1 != 0 {
                for n in nodes(page) { stack.append(u16(n) | u16(n + 2) << 16 | u16(n + 4) << 32) }
            }
        }
        return out
    }

    private var eventsRoot: UInt64 {
        let mainRoot = u64(newestMeta + 16 + 112)
        for page in tree(mainRoot) where flags(page) & 2 != 0 {
            for n in nodes(page) where Array(bytes[(n + 8)..<(n + 8 + u16(n + 6))]) == Array("events".utf8) {
                return u64(n + 8 + 6 + 40)
            }
        }
        return 0
    }

    /// The live leaf pages of the events database, in seq order.
    var eventLeaves: [Leaf] {
        tree(eventsRoot).filter { flags($0) & 2 != 0 }.map { page in
            let seqs = nodes(page).map { n in (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[n + 8 + $1]) } }
            return Leaf(page: page, first: seqs.min() ?? 0, last: seqs.max() ?? 0)
        }.sorted { $0.first < $1.first }
    }

    /// The live branch pages of the events database.
    var eventBranches: [Int] { tree(eventsRoot).filter { flags($0) & 1 != 0 } }

    mutating func zero(_ page: Int) {
        for i in (page * pageSize)..<((page + 1) * pageSize) { bytes[i] = 0 }
    }

    /// Points node `node` of branch page `page` at `target`.
    mutating func setChild(ofBranch page: Int, node: Int, to target: UInt64) {
        let n = nodes(page)[node]
        for i in 0..<6 { bytes[n + i] = UInt8(truncatingIfNeeded: target >> (8 * UInt64(i))) }
    }

    /// Makes the first record of the free-page database list a page past the end of the file.
    mutating func breakFreeList() throws {
        let root = u64(newestMeta + 16 + 64)
        let page = try XCTUnwrap(root == UInt64.max ? nil : Int(root), "the trace has a free-page list")
        XCTAssertEqual(flags(page) & 2, 2, "the free-page list fits one leaf")
        let n = try XCTUnwrap(nodes(page).first)
        let value = n + 8 + u16(n + 6)
        XCTAssertGreaterThanOrEqual(u64(value), 1, "the record lists a page")
        let past = UInt64(bytes.count / pageSize + 1000)
        for i in 0..<8 { bytes[value + 8 + i] = UInt8(truncatingIfNeeded: past >> (8 * UInt64(i))) }
    }

    func write(_ path: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
