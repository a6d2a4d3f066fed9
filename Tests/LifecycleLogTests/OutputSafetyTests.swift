import Foundation
import XCTest
@testable import LifecycleLog

/// `-o` never replaces the command's input, matches its extension, asks
/// before replacing another kind of file, and leaves no temporary files when
/// interrupted; errors name the user's paths (issue 13).
final class OutputSafetyTests: XCTestCase {
    private let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"

    func testOutputNeverReplacesTheCommandsOwnInput() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.write("t.jsonl", try String(contentsOfFile: example, encoding: .utf8))
        let lmdb = folder.file("t.lmdb")
        XCTAssertEqual(try replay("import", jsonl, "-o", lmdb).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: lmdb))
        // Same path, another spelling of it, and a link under an innocent name.
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias.jsonl"), withDestinationPath: lmdb)
        let attempts: [[String]] = [
            ["report", jsonl, "-o", jsonl],
            ["import", jsonl, "-o", jsonl],
            ["export", lmdb, "-o", lmdb],
            ["export", lmdb, "-o", folder.path + "/./t.lmdb"],
            ["export", lmdb, "-o", folder.file("alias.jsonl")],
            ["import", folder.file("alias.jsonl"), "-o", lmdb, "--force"],
            [jsonl, "--expect", jsonl, "--update-expected"],
        ]
        for arguments in attempts {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("this is the command's own input"), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: lmdb)), before, "the trace file is untouched")
        XCTAssertEqual(try String(contentsOfFile: jsonl, encoding: .utf8), try String(contentsOfFile: example, encoding: .utf8))
        XCTAssertEqual(folder.contents, ["alias.jsonl", "t.jsonl", "t.lmdb"], "nothing else was written")
    }

    func testTheExtensionOfTheOutputMatchesWhatIsWritten() throws {
        let folder = TemporaryFolder()
        let lmdb = folder.file("t.lmdb")
        let imported = try replay("import", example, "-o", folder.file("out.jsonl"))
        XCTAssertEqual(imported.status, 2)
        XCTAssertTrue(imported.stderr.contains("replay import writes a trace file (.lmdb), but the name ends in the extension of JSON Lines (.jsonl)"), imported.stderr)
        XCTAssertTrue(imported.stderr.contains("replay export TRACE.lmdb -o OUT.jsonl"), imported.stderr)
        XCTAssertEqual(try replay("import", example, "-o", lmdb).status, 0)
        let exported = try replay("export", lmdb, "-o", folder.file("copy.lmdb"))
        XCTAssertEqual(exported.status, 2)
        XCTAssertTrue(exported.stderr.contains("use: replay import IN.jsonl -o OUT.lmdb"), exported.stderr)
        let report = try replay("report", lmdb, "-o", folder.file("page.json"))
        XCTAssertEqual(report.status, 2)
        XCTAssertTrue(report.stderr.contains("replay TRACE --format json > OUT.json"), report.stderr)
        XCTAssertEqual(try replay("generate", "-o", folder.file("g.html"), "--events", "10").status, 2)
        XCTAssertEqual(folder.contents, ["t.lmdb"], "refused outputs leave nothing")
        // generate chooses by the extension; other names are trace files.
        XCTAssertEqual(try replay("generate", "-o", folder.file("g.JSONL"), "--events", "10").status, 0)
        XCTAssertTrue(try String(contentsOfFile: folder.file("g.JSONL"), encoding: .utf8).hasPrefix("{\"format\":\"lifecycle-trace\""))
        XCTAssertEqual(try replay("generate", "-o", folder.file("g.trace"), "--events", "10").status, 0)
        XCTAssertEqual(try Trace(path: folder.file("g.trace")).eventCount, 10)
    }

    func testReplacingAFileOfAnotherKindNeedsForce() throws {
        let folder = TemporaryFolder()
        let lmdb = folder.file("t.lmdb")
        XCTAssertEqual(try replay("import", example, "-o", lmdb).status, 0)
        let recording = folder.file("recording")  // a trace file under a name without an extension
        XCTAssertEqual(try replay("import", example, "-o", recording).status, 0)
        let refused = try replay("report", lmdb, "-o", recording)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("the file exists and holds a trace file (.lmdb), not an HTML page (.html); pass --force"), refused.stderr)
        XCTAssertEqual(try Trace(path: recording).eventCount, 13)
        XCTAssertEqual(try replay("report", lmdb, "-o", recording, "--force").status, 0)
        XCTAssertTrue(try String(contentsOfFile: recording, encoding: .utf8).contains("<html"))
        // The same kind is replaced as before: a trace file by a trace file, a page by a page.
        XCTAssertEqual(try replay("import", example, "-o", lmdb).status, 0)
        XCTAssertEqual(try replay("report", lmdb, "-o", recording).status, 0)
        let notes = folder.write("notes.txt", "my notes\n")
        XCTAssertEqual(try replay("export", lmdb, "-o", notes).status, 2)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        XCTAssertEqual(try replay("export", lmdb, "-o", folder.path).status, 2, "a folder is never replaced")
    }

    /// Issue 28: `-o` renamed its output over an existing FIFO (or a link to a device) without
    /// `--force`. Whatever is not a regular file is refused, `--force` or not, and left as it was.
    func testOutputNeverReplacesAFIFOOrADeviceEvenWithForce() throws {
        let folder = TemporaryFolder()
        let lmdb = folder.file("t.lmdb")
        XCTAssertEqual(try replay("import", example, "-o", lmdb).status, 0)
        let fifos = ["out.jsonl", "out.json", "out.lmdb", "out.html", "t.expected.json"].map(folder.file)
        for fifo in fifos { XCTAssertEqual(mkfifo(fifo, 0o600), 0, fifo) }
        let null = folder.file("null.jsonl")  // a link to a character device
        try FileManager.default.createSymbolicLink(atPath: null, withDestinationPath: "/dev/null")
        let fifo = "a FIFO (named pipe)"
        let attempts: [(arguments: [String], output: String, kind: String)] = [
            (["export", lmdb, "-o", fifos[0]], fifos[0], fifo),
            (["export", lmdb, "--format", "perfetto", "-o", fifos[1]], fifos[1], fifo),
            (["import", example, "-o", fifos[2]], fifos[2], fifo),
            (["generate", "-o", fifos[2], "--events", "10"], fifos[2], fifo),
            (["merge", lmdb, "-o", fifos[2]], fifos[2], fifo),
            (["report", lmdb, "-o", fifos[3]], fifos[3], fifo),
            (["export", lmdb, "-o", null], null, "a character device"),
        ]
        for (arguments, output, kind) in attempts {
            for force in [false, true] {
                let result = try runProgram(replayExecutable, arguments + (force ? ["--force"] : []), timeout: 60)
                XCTAssertFalse(result.timedOut, "\(arguments) hung")
                XCTAssertEqual(result.status, 2, "\(arguments), force \(force): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("replay: error: \(output): is \(kind), not a regular file; -o replaces only a regular file, with --force too"),
                              "\(arguments), force \(force): \(result.stderr)")
            }
        }
        let update = try runProgram(replayExecutable, [lmdb, "--expect", fifos[4], "--update-expected"], timeout: 60)
        XCTAssertEqual(update.status, 2, update.stderr)
        XCTAssertTrue(update.stderr.contains("\(fifos[4]): is a FIFO (named pipe), not a regular file; --expect replaces only a regular file"), update.stderr)
        for path in fifos {
            var info = stat()
            XCTAssertEqual(lstat(path, &info), 0, path)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "\(path) is still a FIFO")
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: null), "/dev/null", "the link is still the link")
        XCTAssertEqual(folder.contents, ["null.jsonl", "out.html", "out.json", "out.jsonl", "out.lmdb", "t.expected.json", "t.lmdb"], "no temporary file")
    }

    /// Issue 28: `replay record FIFO` hung for ever, from standard input and with `--listen`
    /// alike, in the open of the trace (a FIFO blocks it until a writer comes), where the reading
    /// commands refuse a FIFO at once; so did the library's writers. All refuse it now, at once.
    func testRecordingIntoAFIFOIsRefusedAtOnce() throws {
        let folder = TemporaryFolder()
        let fifo = folder.file("t.lmdb")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let line = #"{"event":"mark","t":1,"label":"x"}"# + "\n"
        for arguments in [["record", fifo], ["record", fifo, "--input", folder.write("in.jsonl", line)], ["record", "--listen", "127.0.0.1:0", fifo]] {
            let result = try runProgram(replayExecutable, arguments, stdin: line, timeout: 60)
            XCTAssertFalse(result.timedOut, "\(arguments) hung")
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("replay: error: \(fifo): is a FIFO (named pipe), not a regular file"), "\(arguments): \(result.stderr)")
        }
        // The library's writers, each on a thread of its own so that one that blocks fails the test rather than hanging it.
        let writers: [(name: String, open: @Sendable () throws -> Void)] = [
            ("TraceWriter", { _ = try TraceWriter(path: fifo) }),
            ("TraceFileSink", { _ = try TraceFileSink(path: fifo) }),
            ("TraceCollector", { _ = try TraceCollector(trace: fifo, port: 0) }),
        ]
        for (name, open) in writers {
            let outcome = Locked<Result<Void, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let result = Result { try open() }
                outcome.withLock { $0 = result }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success else {
                XCTFail("\(name) hung opening a FIFO")
                continue
            }
            var error: LifecycleLogError?
            if case .failure(let failure)? = outcome.withLock({ $0 }) { error = failure as? LifecycleLogError }
            XCTAssertEqual(error?.code, .notATrace, "\(name): \(String(describing: error))")
            XCTAssertTrue(error?.description.hasPrefix("\(fifo): is a FIFO (named pipe), not a regular file, so it cannot be a trace; name a new .lmdb file") ?? false,
                          "\(name): \(String(describing: error))")
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        XCTAssertEqual(folder.contents, ["in.jsonl", "t.lmdb"], "no lock file, no temporary file")
    }

    func testErrorsNameTheUsersPathNotTheTemporaryFile() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("no-such-folder/out.lmdb")
        for arguments in [["import", example, "-o", missing], ["generate", "-o", missing, "--events", "10"]] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("replay: error: \(missing): cannot create the trace file: No such file or directory; check that the folder exists"), result.stderr)
            XCTAssertFalse(result.stderr.contains(".tmp"), result.stderr)
        }
    }

    func testInterruptingAnImportOrAGenerationLeavesNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        for (arguments, signal, expected) in [
            (["generate", "--events", "5000000", "-o", folder.file("big.lmdb")], SIGINT, Int32(130)),
            (["generate", "--events", "5000000", "-o", folder.file("big.jsonl")], SIGTERM, Int32(143)),
            (["import", "-", "-o", folder.file("piped.lmdb")], SIGINT, Int32(130)),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: replayExecutable)
            process.arguments = arguments
            let input = Pipe()  // kept open: import waits for more lines
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the temporary file exists (and, generating, has grown), then interrupt.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let sizes = folder.contents.map { (try? FileManager.default.attributesOfItem(atPath: folder.file($0))[.size] as? Int) ?? 0 }
                if let size = sizes.max(), size > (arguments[0] == "import" ? 0 : 1 << 20) { break }
                usleep(20_000)
            }
            XCTAssertFalse(folder.contents.isEmpty, "\(arguments): no temporary file appeared")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()
            XCTAssertEqual(process.terminationReason, .exit, "\(arguments)")
            XCTAssertEqual(process.terminationStatus, expected, "\(arguments)")
            XCTAssertEqual(folder.contents, [], "\(arguments) left files behind")
        }
    }
}
