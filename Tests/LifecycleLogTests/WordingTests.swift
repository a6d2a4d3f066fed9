import Foundation
import XCTest
@testable import LifecycleLog

/// What a new user reads (issue 30: 6, 9, 12): messages worded for what they say, counts in the
/// right number, usage and help laid out to be read. (The wording of the rules' own findings:
/// LifecycleLogRulesTests' `WordingTests`.)
final class WordingTests: XCTestCase {
    private let editor = "\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl"

    // MARK: 6. kill-exposure of one event: LifecycleLogRulesTests' WordingTests

    // MARK: 9. export of a JSON Lines trace

    func testExportOfAJSONLinesTraceSaysItIsOneAndWhatToDo() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.write("session.jsonl", try String(contentsOfFile: editor, encoding: .utf8))
        let renamed = folder.write("session.json", try String(contentsOfFile: editor, encoding: .utf8))
        for (path, salvage) in [(jsonl, false), (jsonl, true), (renamed, false)] {
            let result = try salvage ? replay("export", path, "--salvage", "-o", folder.file("out.jsonl")) : replay("export", path)
            XCTAssertEqual(result.status, 2)
            XCTAssertEqual(result.stdout, "")
            XCTAssertFalse(folder.contents.contains("out.jsonl"))
            let lmdb = String(path.dropLast(path.hasSuffix(".jsonl") ? 6 : 5)) + ".lmdb"
            XCTAssertTrue(result.stderr.contains("\(path): is a JSON Lines trace, which is already what `replay export` writes: "
                + "export reads a trace file (.lmdb). To make a trace file of it: replay import \(path) -o \(lmdb)"), result.stderr)
            XCTAssertFalse(result.stderr.contains("LMDB trace"), result.stderr)
        }
        // A .jsonl name over something else; standard input.
        let other = folder.write("notes.jsonl", "not a trace\n")
        let named = try replay("export", other)
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.stderr.contains("notes.jsonl: is named as JSON Lines, what `replay export` writes, and is not a trace file"), named.stderr)
        let piped = try replay("export", "-", stdin: try String(contentsOfFile: editor, encoding: .utf8))
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.stderr.contains("export reads a trace file (.lmdb), not standard input"), piped.stderr)
        XCTAssertTrue(piped.stderr.contains("replay import - -o session.lmdb"), piped.stderr)
        // What the advice says works; a trace file still exports, and Perfetto still reads JSON Lines.
        XCTAssertEqual(try replay("import", jsonl, "-o", folder.file("session.lmdb")).status, 0)
        let exported = try replay("export", folder.file("session.lmdb"))
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertEqual(exported.stdout.split(separator: "\n").count, 19)
        XCTAssertEqual(try replay("export", jsonl, "--format", "perfetto").status, 0)
    }

    /// `--format perfetto` and `otlp` read the trace twice (findings, then events): from standard
    /// input the second read found nothing, and the export came out without its events, exit 0.
    /// Refused, saying what to do; what it says works.
    func testAnExportThatReadsTheTraceTwiceRefusesStandardInput() throws {
        let folder = TemporaryFolder()
        let text = try String(contentsOfFile: editor, encoding: .utf8)
        for format in [["perfetto"], ["otlp"], ["otlp", "--otlp-signal", "traces"]] {
            let piped = try runReplay(["export", "-", "--format"] + format, environment: [:], stdin: text)
            XCTAssertEqual(piped.status, 2, "\(format): \(piped.stdout.prefix(200))")
            XCTAssertEqual(piped.stdout, "", "\(format): nothing half-written")
            XCTAssertTrue(piped.stderr.contains("export --format \(format[0]) reads the trace more than once"), piped.stderr)
            XCTAssertTrue(piped.stderr.contains("replay import - -o session.lmdb"), piped.stderr)
        }
        // The advice: a trace file made from standard input exports as one made from the file.
        let other = TemporaryFolder()
        XCTAssertEqual(try runReplay(["import", "-", "-o", folder.file("session.lmdb")], environment: [:], stdin: text).status, 0)
        XCTAssertEqual(try replay("import", editor, "-o", other.file("session.lmdb")).status, 0)
        let fromStandardInput = try replay("export", folder.file("session.lmdb"), "--format", "perfetto")
        XCTAssertEqual(fromStandardInput.status, 0, fromStandardInput.stderr)
        XCTAssertGreaterThan(fromStandardInput.stdout.components(separatedBy: "\"ph\"").count, 20, "its events are there")
        XCTAssertEqual(fromStandardInput.stdout, try replay("export", other.file("session.lmdb"), "--format", "perfetto").stdout)
    }

    // MARK: 12. Wording and layout

    func testCountsAreInTheRightNumber() throws {
        XCTAssertEqual(plural(1, "warning"), "1 warning")
        XCTAssertEqual(plural(0, "warning"), "0 warnings")
        XCTAssertEqual(plural(UInt64(2), "process", "processes"), "2 processes")
        let folder = TemporaryFolder()
        let one = folder.write("one.jsonl", """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[]}

            """)
        XCTAssertEqual(try replay(one).stdout, "\(one): 1 event, 1 run: 0 errors, 0 warnings\n")
        let imported = try replay("import", one, "-o", folder.file("one.lmdb"))
        XCTAssertEqual(imported.stderr, "imported 1 event into \(folder.file("one.lmdb"))\n")
        let spool = folder.write("spool.jsonl", """
            {"format":"lifecycle-trace","version":2}
            {"event":"mark","t":5,"label":"x"}

            """)
        let merged = try replay("merge", folder.file("one.lmdb"), spool, "-o", folder.file("merged.lmdb"))
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(merged.stderr.contains("merged 1 event from the trace and 1 from the spools"), merged.stderr)
        XCTAssertTrue(merged.stderr.contains("; 1 spool event without a delivery member kept at its own t)"), merged.stderr)
        // 2 errors and 1 warning: the --expect line, the report's line, the summary line.
        let editorCopy = folder.write("editor.jsonl", try String(contentsOfFile: editor, encoding: .utf8))
        XCTAssertEqual(try replay(editorCopy, "--explore", "--expect", folder.path, "--update-expected").status, 0)
        let matches = try replay(editorCopy, "--expect", folder.file("editor.expected.json"))
        XCTAssertTrue(matches.stdout.contains("matches \(folder.file("editor.expected.json")) (2 errors, 1 warning)"), matches.stdout)
        XCTAssertTrue(try replay(editorCopy, "--explore").stdout.hasSuffix(": 18 events, 1 run: 2 errors, 1 warning\n"))
        let page = try replay("report", editorCopy, "--explore", "-o", folder.file("editor.html"))
        XCTAssertEqual(page.stderr, "wrote \(folder.file("editor.html")): 18 events, 2 errors, 1 warning\n")
    }

    func testAReportOnStandardOutputDoesNotSayItWroteDash() throws {
        let page = try replay("report", editor, "-o", "-")
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdout.hasPrefix("<!DOCTYPE html>") || page.stdout.hasPrefix("<!doctype html>"), String(page.stdout.prefix(40)))
        XCTAssertEqual(page.stderr, "wrote the page to standard output: 18 events, 2 errors, 0 warnings\n")
    }

    func testAMissingFileIsSaidOnceNamingThePath() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("nope.lmdb")
        for arguments in [[missing], ["dump", missing], ["export", missing], [folder.file("nope.jsonl")]] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertEqual(result.stderr, "replay: error: \(arguments.last!): there is no such file or folder; check the path\n")
        }
        // A trace file in a folder that does not exist names the trace, not a temporary file.
        let record = try replay("record", folder.file("gone/x.lmdb"), stdin: "")
        XCTAssertEqual(record.status, 2)
        XCTAssertEqual(record.stderr, "replay: error: \(folder.file("gone/x.lmdb")): cannot create the trace file: its folder does not exist; check the path\n")
    }

    func testABareReplayPrintsAShortUsageAndWhereTheHelpIs() throws {
        let bare = try runProgram(replayExecutable, [])
        XCTAssertEqual(bare.status, 2)
        XCTAssertEqual(bare.stdout, "")
        let lines = bare.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, bare.stderr)
        XCTAssertTrue(lines[0].hasPrefix("Error: "), bare.stderr)
        XCTAssertTrue(lines[1].hasPrefix("Usage: replay <traces> ..."), bare.stderr)
        XCTAssertEqual(lines[3], "  See 'replay --help' for more information.")
        XCTAssertFalse(bare.stderr.contains("SUBCOMMANDS"), "not the whole help")
    }

    func testTheHelpListsEveryExitStatus() throws {
        let help = try replay("--help").stdout
        let statuses = help.components(separatedBy: "Exit status:")[1].components(separatedBy: "Example:")[0]
        for status in ["0 ", "1 ", "2 ", "130 ", "141 "] {
            XCTAssertTrue(statuses.contains("\n  \(status)"), "exit status \(status)in \(statuses)")
        }
        XCTAssertTrue(statuses.contains("--expect found a difference"), statuses)
        XCTAssertTrue(statuses.contains("143"), statuses)
        XCTAssertTrue(statuses.contains("SIGPIPE"), statuses)
        // And 141 is what a closed pipe gives.
        let folder = TemporaryFolder()
        let trace = folder.file("big.jsonl")
        XCTAssertEqual(try replay("generate", "-o", trace, "--events", "50000").status, 0)
        let status = try runProgram("/bin/bash", ["-c", "'\(replayExecutable)' dump '\(trace)' | head -1 > /dev/null; echo ${PIPESTATUS[0]}"])
        XCTAssertEqual(status.stdout, "141\n", status.stderr)
    }

    func testHelpExamplesAreNotWrappedMidCommand() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = nil
        for command in ["", "check", "import", "export", "record", "report", "summary", "stats", "dump", "generate", "minimize", "merge", "rules"] {
            let help = try runProgram(replayExecutable, command.isEmpty ? ["--help"] : [command, "--help"], environment: environment).stdout
            guard let examples = help.components(separatedBy: "USAGE:").first?.range(of: "Example") else { continue }
            let block = help[examples.upperBound...].components(separatedBy: "USAGE:")[0]
            for line in block.split(separator: "\n").dropFirst() where !line.isEmpty {
                XCTAssertTrue(line.hasPrefix("  "), "replay \(command) --help: an example wrapped mid-command: \(line)")
                XCTAssertLessThanOrEqual(line.count, 80, "replay \(command) --help: \(line)")
            }
        }
    }

    func testDumpLinesUpAnotherProcesssWindows() throws {
        let clean = "\(repositoryRoot)/traces/rules/app-widget-share-extension-clean.jsonl"
        for arguments in [["dump", clean], ["dump", "-", "--from", "9", "--to", "12"]] {
            let result = try runProgram(replayExecutable, arguments, stdin: try String(contentsOfFile: clean, encoding: .utf8))
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let fields = try XCTUnwrap(lines[0].range(of: "FIELDS")).lowerBound.utf16Offset(in: lines[0])
            XCTAssertGreaterThanOrEqual(fields, "w1 (com.example.notes.share)".count + 8 + 14 + 10)
            for line in lines.dropFirst() {
                let characters = Array(line)
                XCTAssertEqual(characters[fields - 1], " ", line)
                if characters.count > fields { XCTAssertNotEqual(characters[fields], " ", "FIELDS starts in one column: \(line)") }
            }
            XCTAssertTrue(result.stdout.contains("w1 (com.example.notes.share)  scene=compose"), result.stdout)
        }
        // A trace of one process keeps its layout.
        let one = try replay("dump", editor).stdout.split(separator: "\n")
        XCTAssertEqual(one[0], "SEQ     T (ms)        KIND      WINDOW        FIELDS")
        XCTAssertEqual(one[18], "18      7002          terminate -             reason=quit")
    }

    func testStateOfAFolderSaysAJSONLinesTraceWorksToo() throws {
        let folder = TemporaryFolder()
        let state = try replay(folder.path, "--state")
        XCTAssertEqual(state.status, 2)
        XCTAssertEqual(state.stderr, "replay: error: \(folder.path): is a folder; --state shows the state of one trace: name a trace in it (a .lmdb trace file or a .jsonl JSON Lines trace)\n")
        for command in ["dump", "report"] {
            let result = try command == "report" ? replay(command, folder.path, "-o", folder.file("r.html")) : replay(command, folder.path)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("name a trace in it (a .lmdb trace file or a .jsonl JSON Lines trace)"), result.stderr)
        }
    }

    func testSalvageOfAFileLiblmdbCannotOpenSaysNoAfterThat() throws {
        let folder = TemporaryFolder()
        let trace = folder.file("t.lmdb")
        XCTAssertEqual(try replay("generate", "-o", trace, "--events", "3000").status, 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        let truncated = folder.file("truncated.lmdb")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        let salvaged = try replay("export", "--salvage", truncated, "-o", folder.file("out.jsonl"))
        XCTAssertEqual(salvaged.status, 0, salvaged.stderr)
        XCTAssertTrue(salvaged.stderr.contains("liblmdb could not read the trace"), salvaged.stderr)
        XCTAssertTrue(salvaged.stderr.contains("were found in the file's pages, up to seq"), salvaged.stderr)
        XCTAssertFalse(salvaged.stderr.contains("after that"), salvaged.stderr)
    }
}
