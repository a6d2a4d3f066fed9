import Foundation
import XCTest
@testable import LifecycleLog

/// A write that fails (a full disk; here a file-size limit, `ulimit -f`,
/// which fails writes past it with EFBIG exactly as a full disk fails them
/// with ENOSPC) fails the command with exit 2, leaves no output and no
/// temporary file, and leaves an existing file untouched (issue 23, items 1
/// and 8). scripts/disk-full-campaign does the same on a real full tmpfs.
final class DiskFullTests: XCTestCase {
    /// Runs `replay` with a file-size limit of `kilobytes` (dash counts `ulimit -f` in 512-byte blocks).
    /// Standard error goes to a file outside the folder checked, read back into the result (a
    /// command that writes much to both pipes would block on the one the test is not reading).
    /// With `kilobytes` 0 standard error stays a pipe (the limit would cut the file).
    /// `environment` is added to this process's own (without its `GITHUB_STEP_SUMMARY`).
    private func limitedReplay(kilobytes: Int, _ arguments: [String], stdoutTo file: String? = nil,
                               environment: [String: String] = [:]) throws -> ProcessResult {
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "GITHUB_STEP_SUMMARY" }.merging(environment) { $1 }
        if kilobytes == 0 {
            return try runProgram("/bin/sh", ["-c", "ulimit -f 0; exec \"$@\"", "sh", replayExecutable] + arguments, environment: environment)
        }
        let redirect = file.map { " > '\($0)'" } ?? ""
        let errors = NSTemporaryDirectory() + "/disk-full-stderr-\(getpid())"
        defer { unlink(errors) }
        var result = try runProgram("/bin/sh", ["-c", "ulimit -f \(kilobytes * 2); exec \"$@\"\(redirect) 2> '\(errors)'", "sh", replayExecutable] + arguments,
                                    environment: environment)
        result.stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return result
    }

    private func bigTrace(_ folder: TemporaryFolder) throws -> String {
        let trace = folder.file("big.lmdb")
        XCTAssertEqual(try replay("generate", "-o", trace, "--events", "3000", "--bug-rate", "300").status, 0)
        return trace
    }

    private func assertFailedCleanly(_ result: ProcessResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 2, "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.signaled, what, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("File too large") || result.stderr.contains("No space left") || result.stderr.contains("disk out of space"), "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("wrote "), "\(what) claims success: \(result.stderr)", file: file, line: line)
    }

    func testReportOnAFullDiskFailsAndLeavesNoPage() throws {
        let folder = TemporaryFolder()
        let trace = try bigTrace(folder)
        let result = try limitedReplay(kilobytes: 16, ["report", trace, "-o", folder.file("page.html")])
        assertFailedCleanly(result, "report")
        XCTAssertEqual(folder.contents, ["big.lmdb"], "no page, no temporary file")
        // An existing page stays as it was.
        let page = folder.write("old.html", "<!doctype html><p>old</p>\n")
        assertFailedCleanly(try limitedReplay(kilobytes: 16, ["report", trace, "-o", page]), "report over a page")
        XCTAssertEqual(try String(contentsOfFile: page, encoding: .utf8), "<!doctype html><p>old</p>\n")
        XCTAssertEqual(folder.contents, ["big.lmdb", "old.html"])
    }

    func testGenerateExportAndUpdateExpectedLeaveNoTemporaryFiles() throws {
        let folder = TemporaryFolder()
        let trace = try bigTrace(folder)
        assertFailedCleanly(try limitedReplay(kilobytes: 16, ["generate", "-o", folder.file("g.jsonl"), "--events", "5000"]), "generate .jsonl")
        assertFailedCleanly(try limitedReplay(kilobytes: 16, ["generate", "-o", folder.file("g.lmdb"), "--events", "5000"]), "generate .lmdb")
        assertFailedCleanly(try limitedReplay(kilobytes: 16, ["export", trace, "-o", folder.file("e.jsonl")]), "export")
        assertFailedCleanly(try limitedReplay(kilobytes: 16, ["export", trace, "--format", "perfetto", "-o", folder.file("e.json")]), "export perfetto")
        assertFailedCleanly(try limitedReplay(kilobytes: 16, [trace, "--expect", folder.file("x.expected.json"), "--update-expected"]), "--update-expected")
        XCTAssertEqual(folder.contents, ["big.lmdb"], "nothing half-written, no *.tmp-PID")
    }

    func testImportAndMinimizeLeaveNothing() throws {
        let folder = TemporaryFolder()
        let trace = try bigTrace(folder)
        XCTAssertEqual(try replay("export", trace, "-o", folder.file("big.jsonl")).status, 0)
        assertFailedCleanly(try limitedReplay(kilobytes: 64, ["import", folder.file("big.jsonl"), "-o", folder.file("i.lmdb")]), "import")
        let report = try replay(trace, "--format", "json")
        let rule = try XCTUnwrap(report.stdout.range(of: #""rule":"[a-z-]+""#, options: .regularExpression).map { String(report.stdout[$0].dropFirst(8).dropLast()) })
        assertFailedCleanly(try limitedReplay(kilobytes: 0, ["minimize", trace, "--rule", rule, "-o", folder.file("m.jsonl")]), "minimize")
        XCTAssertEqual(folder.contents, ["big.jsonl", "big.lmdb"])
    }

    func testAReportToAFullStandardOutputIsAnError() throws {
        let folder = TemporaryFolder()
        let trace = try bigTrace(folder)
        for format in ["text", "json", "junit", "sarif", "github"] {
            let result = try limitedReplay(kilobytes: 4, [trace, "--format", format], stdoutTo: folder.file("out"))
            XCTAssertEqual(result.status, 2, "\(format): \(result.stderr)")
            // SARIF and JUnit are gathered in a spill file first (SpillBuffer), which the limit can stop sooner.
            XCTAssertTrue(result.stderr.contains("cannot write to standard output") || result.stderr.contains("cannot write the report's temporary file"),
                          "\(format): \(result.stderr)")
        }
    }

    /// Issue 28: on a full disk `--format github` left the job summary with its table cut
    /// mid-row and exited 0. The summary is appended whole or not at all (the file is truncated
    /// back to what the earlier steps wrote), and the command fails, for one trace (streamed) and several.
    func testAJobSummaryOnAFullDiskIsLeftAsItWasAndTheCommandFails() throws {
        let folder = TemporaryFolder()
        let trace = try bigTrace(folder)
        let other = folder.file("other.lmdb")
        try FileManager.default.copyItem(atPath: trace, toPath: other)
        let summary = folder.file("summary.md")
        // An earlier step's summary, 1 KiB short of the limit: this step's (about 20 KiB) is cut short.
        let earlier = "## an earlier step\n\n" + String(repeating: "earlier step's summary\n", count: 15 * 1024 / 23)
        for traces in [[trace], [trace, other]] {
            folder.write("summary.md", earlier)
            let result = try limitedReplay(kilobytes: 16, traces + ["--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary])
            assertFailedCleanly(result, "github, \(traces.count) traces")
            XCTAssertTrue(result.stderr.contains("replay: error: \(summary): cannot append the job summary to $GITHUB_STEP_SUMMARY: File too large"),
                          "\(traces.count) traces: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the summary was left as it was"), result.stderr)
            XCTAssertTrue(result.stdout.hasPrefix("::"), "the annotations are out: \(result.stdout.prefix(200))")
            XCTAssertEqual(try String(contentsOfFile: summary, encoding: .utf8), earlier, "\(traces.count) traces: nothing of this step's summary")
        }
        // With room, the same summary is appended whole, after the earlier one.
        let result = try runReplay([trace, "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary])
        XCTAssertEqual(result.status, 0, result.stderr)
        let appended = try String(contentsOfFile: summary, encoding: .utf8)
        XCTAssertTrue(appended.hasPrefix(earlier + "## replay: "), String(appended.prefix(earlier.count + 100)))
        XCTAssertGreaterThan(appended.utf8.count, 16 * 1024)
        XCTAssertTrue(appended.hasSuffix("|\n\n") || appended.hasSuffix("locally).\n\n"), "ends after its last row: \(appended.suffix(200))")
    }

    func testRecordIntoATraceOnAFullDiskLeavesTheTraceReadable() throws {
        let folder = TemporaryFolder()
        let big = try bigTrace(folder)
        XCTAssertEqual(try replay("export", big, "-o", folder.file("big.jsonl")).status, 0)
        let lines = try String(contentsOfFile: folder.file("big.jsonl"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let head = folder.write("head.jsonl", lines[..<200].joined(separator: "\n") + "\n")
        let rest = folder.write("rest.jsonl", lines[200...].joined(separator: "\n"))
        let trace = folder.file("t.lmdb")
        XCTAssertEqual(try replay("record", trace, "--input", head).status, 0)
        let before = try Trace(path: trace).eventCount
        XCTAssertEqual(before, 199)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int)
        let result = try limitedReplay(kilobytes: size / 1024 + 4, ["record", trace, "--input", rest])
        assertFailedCleanly(result, "record")
        XCTAssertFalse(result.stderr.contains("rejected"), result.stderr)
        let after = try Trace(path: trace).eventCount
        XCTAssertGreaterThanOrEqual(after, before, "the events already there are kept")
        XCTAssertLessThan(after, 3000)
        XCTAssertEqual(try replay("export", trace, "-o", folder.file("after.jsonl")).status, 0, "the trace is still whole")
        let exported = try String(contentsOfFile: folder.file("after.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(Array(exported[1...]), Array(lines[1..<(Int(after) + 1)]), "a prefix of the input, nothing torn")
    }
}

/// A JSON Lines input with a line longer than the limit (a file without any
/// newline, `/dev/zero` under a `.jsonl` name) is an error naming the line,
/// in bounded memory, for every command that reads JSON Lines (issue 23 item 4).
final class LongLineTests: XCTestCase {
    func testALineLongerThanTheLimitIsAnErrorNamingTheLine() throws {
        let folder = TemporaryFolder()
        let header = "{\"format\":\"lifecycle-trace\",\"version\":1}\n"
        let long = String(repeating: "a", count: LineReader.maxLineBytes + 10)
        let path = folder.write("long.jsonl", header + long)
        for arguments in [[path], ["import", path, "-o", folder.file("t.lmdb")], ["record", folder.file("r.lmdb"), "--input", path], ["stats", path]] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("line 2: the line is longer than 16 MiB"), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("t.lmdb")))
        // A line just within the limit is read (and is bad JSON here, which is another error).
        let within = folder.write("within.jsonl", header + String(repeating: "a", count: LineReader.maxLineBytes) + "\n")
        let result = try replay("import", within, "-o", folder.file("w.lmdb"))
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("line 2") && result.stderr.contains("not valid JSON"), result.stderr)
    }

    func testTheLimitHoldsForAnEndlessInputInBoundedMemory() throws {
        #if os(Linux)
        let folder = TemporaryFolder()
        let zero = folder.file("zero.jsonl")
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        // 512 MB of address space is far less than the 7 GB an unbounded line reached; the
        // limit is a few tens of MB.
        let result = try runProgram("/bin/sh", ["-c", "ulimit -v 2000000; exec \"$@\"", "sh", replayExecutable, "import", zero, "-o", folder.file("t.lmdb")])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.signaled)
        XCTAssertTrue(result.stderr.contains("line 1: the line is longer than 16 MiB"), result.stderr)
        #endif
    }
}

#if os(Linux)
/// `SpoolSink` on a full disk (issue 23 item 6), on a real full file system: a
/// small tmpfs mounted in a mount namespace of its own (`unshare -m`, as
/// root). The checks run in the child, which is this test binary started
/// again with ``childVariable`` set; without `unshare` and root the test is skipped.
final class SpoolDiskFullTests: XCTestCase {
    static let childVariable = "LIFECYCLELOG_DISK_FULL_CHILD"

    /// Fills the file system of `folder` so that about `free` bytes stay free; returns the filler's path.
    static func fill(_ folder: String, leaving free: Int) -> String {
        let reserve = folder + "/reserve", filler = folder + "/filler"
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        func write(_ path: String, upTo limit: Int) {
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            var total = 0
            while total < limit {
                let n = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, min($0.count, limit - total)) }
                if n <= 0 { break }
                total += n
            }
            close(fd)
        }
        write(reserve, upTo: free)
        write(filler, upTo: .max)
        unlink(reserve)
        return filler
    }

    private func labels(_ spool: String) throws -> [String] {
        let text = try String(contentsOfFile: spool, encoding: .utf8)
        XCTAssertTrue(text.isEmpty || text.hasSuffix("\n"), "whole lines only")
        return try events(text).compactMap { if case .mark(let label) = $0.kind { label } else { nil } }
    }

    /// In the child, on a 4 MiB tmpfs at the folder the variable names.
    func testChildFullDisk() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        // 1. The disk is full before the spool is created: one empty file, no others; the events wait.
        var filler = Self.fill(folder, leaving: 0)
        let spool = folder + "/sp.jsonl"
        var recorder: LifecycleRecorder? = LifecycleRecorder(sink: SpoolSink(path: spool), durability: .batched(maxDelayMilliseconds: 3_600_000, maxEvents: 1_000_000))
        for i in 1...100 { recorder!.mark("\(i)") }
        XCTAssertThrowsError(try recorder!.flush())
        XCTAssertThrowsError(try recorder!.flush())
        XCTAssertTrue(recorder!.lastError?.message.contains("No space left on device") ?? false, "\(String(describing: recorder!.lastError))")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["filler", "sp.jsonl"], "never one file after another")
        unlink(filler)
        try recorder!.flush()
        XCTAssertEqual(try labels(spool), (1...100).map(String.init))
        try recorder!.close()
        recorder = nil
        unlink(spool)

        // 2. The disk fills mid-session with 128 KiB free and 20,000 events waiting: what fits is written,
        // whole lines, an exact prefix; the rest wait and follow once space is freed.
        let sink = SpoolSink(path: spool)
        recorder = LifecycleRecorder(sink: sink, durability: .batched(maxDelayMilliseconds: 3_600_000, maxEvents: 1_000_000))
        recorder!.mark("0")
        try recorder!.flush()
        filler = Self.fill(folder, leaving: 128 << 10)
        for i in 1...20_000 { recorder!.mark("\(i)") }
        XCTAssertThrowsError(try recorder!.flush())
        let stored = try labels(spool)
        XCTAssertGreaterThan(stored.count, 2_000, "what fits in 128 KiB is written")
        XCTAssertEqual(stored, (0..<stored.count).map(String.init), "an exact prefix")
        XCTAssertTrue(recorder!.lastError?.message.contains("events written; the rest wait in memory") ?? false, "\(String(describing: recorder!.lastError))")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["filler", "sp.jsonl"])
        unlink(filler)
        try recorder!.flush()
        try recorder!.close()
        XCTAssertEqual(try labels(spool), (0...20_000).map(String.init), "all of them, once, in order")
    }

    /// In the child: a `TraceFileSink` on a full disk keeps its trace readable (an exact prefix),
    /// the recorder keeps the events, and they all follow once space is freed.
    func testChildTraceFileSinkFullDisk() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let path = folder + "/t.lmdb"
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 3_600_000, maxEvents: 1_000_000))
        recorder.launch(platform: .iOS, scenes: [])
        for i in 1...100 { recorder.mark("\(i)") }
        try recorder.flush()
        let filler = Self.fill(folder, leaving: 256 << 10)
        for i in 101...20_000 { recorder.mark("\(i)") }
        XCTAssertThrowsError(try recorder.flush())
        XCTAssertNotNil(recorder.lastError)
        let stored = try Trace(path: path).eventCount
        XCTAssertGreaterThan(stored, 2_000, "what fits in 256 KiB is written, not only the events committed before")
        XCTAssertLessThan(stored, 20_001)
        unlink(filler)
        try recorder.flush()
        try recorder.close()
        var labels: [String] = []
        try Trace(path: path).forEachEvent { _, event in if case .mark(let label) = event.kind { labels.append(label) } }
        XCTAssertEqual(labels, (1...20_000).map(String.init), "all of them, once, in order")
    }

    /// liblmdb writes its lock file through `mmap`: on a full tmpfs that was SIGBUS for `record`
    /// and the collector opening a trace whose lock file did not exist yet.
    func testOpeningATraceForRecordingOnAFullDiskIsAnErrorNotASignal() throws {
        try XCTSkipUnless(getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare(1) to mount a small tmpfs")
        let folder = TemporaryFolder()
        let mountPoint = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let jsonl = folder.write("in.jsonl", "{\"event\":\"mark\",\"t\":1,\"label\":\"a\"}\n")
        XCTAssertEqual(try replay("import", jsonl, "-o", folder.file("t.lmdb")).status, 0)
        for command in ["record \"$0/t.lmdb\" --input \"$1\"", "record --listen 127.0.0.1:0 \"$0/t.lmdb\"", "record \"$0/new.lmdb\" --input \"$1\""] {
            let script = "mount -t tmpfs -o size=256k tmpfs \"$0\" && cp \"$2\" \"$0/t.lmdb\" && { cat /dev/zero > \"$0/fill\" 2>/dev/null; exec \"$3\" \(command); }"
            let result = try runProgram("/usr/bin/unshare", ["-m", "sh", "-c", script, mountPoint, jsonl, folder.file("t.lmdb"), replayExecutable])
            try XCTSkipIf(result.stderr.contains("mount:") || result.stderr.contains("unshare:"), "cannot mount a tmpfs here: \(result.stderr)")
            XCTAssertFalse(result.signaled, "\(command): \(result.stderr)")
            XCTAssertEqual(result.status, 2, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
        }
    }

    func testTheSinksDegradeGracefullyOnAFullDisk() throws {
        let binary = CommandLine.arguments[0]
        try XCTSkipUnless(getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare(1) to mount a small tmpfs")
        let folder = TemporaryFolder()
        let mountPoint = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = mountPoint
        for child in ["testChildFullDisk", "testChildTraceFileSinkFullDisk"] {
            let result = try runProgram("/usr/bin/unshare", ["-m", "sh", "-c", "mount -t tmpfs -o size=4m tmpfs \"$0\" && exec \"$1\" \"$2\"",
                                                             mountPoint, binary, "LifecycleLogTests.SpoolDiskFullTests/\(child)"], environment: environment)
            try XCTSkipIf(result.stderr.contains("mount:") || result.stderr.contains("unshare:"), "cannot mount a tmpfs here: \(result.stderr)")
            XCTAssertEqual(result.status, 0, "\(child): " + result.stdout + result.stderr)
            XCTAssertTrue((result.stdout + result.stderr).contains("Executed 1 test, with 0 failures"), "\(child): " + result.stdout + result.stderr)
        }
    }
}
#endif
