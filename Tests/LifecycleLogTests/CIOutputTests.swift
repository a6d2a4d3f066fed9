import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Output for CI and editors (issue 13): locations that open the right line,
/// GitHub annotations, JUnit that XML parsers accept, escaped trace strings. (`LineMap` and
/// `VisibleText`, which need no LMDB: LifecycleLogRulesTests' `CIOutputTests`.)
final class CIOutputTests: XCTestCase {
    private let editor = "\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl"
    private let notes = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"

    /// A trace whose window id is a terminal escape sequence (OSC set-title, then BEL)
    /// and whose key holds a newline, a comma and a colon: it fires `unsaved-at-exit`.
    private let hostile = [
        launch(),
        #"{"event":"open","t":1,"window":"\u001b]0;pwned\u0007","scene":"main"}"#,
        #"{"event":"phase","t":2,"window":"\u001b]0;pwned\u0007","phase":"active"}"#,
        #"{"event":"write","t":3,"key":"a,b:c\n\u0001%","scope":"scene","window":"\u001b]0;pwned\u0007"}"#,
        #"{"event":"terminate","t":4}"#,
    ].joined(separator: "\n") + "\n"

    // MARK: 1. Locations

    /// A report longer than what `replay` keeps in memory goes to a temporary file and is read
    /// back in 64 KiB pieces. Each piece was decoded as text on its own, so one that ended inside
    /// a multi-byte character got U+FFFD there (this trace's report did, twice). Its 3,000 lines,
    /// each naming a window whose id is 50 "窓", come out whole.
    func testALongReportReadBackFromItsTemporaryFileKeepsEveryCharacter() throws {
        let folder = TemporaryFolder()
        let id = String(repeating: "窓", count: 50)
        var lines = [#"{"format":"lifecycle-trace","version":1}"#,
                     #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#]
        for i in 0..<3000 { lines.append(#"{"event":"phase","t":\#(i + 1),"window":"\#(id)\#(i)","phase":"active"}"#) }
        folder.write("long.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try replay(folder.file("long.jsonl"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(result.stdout.utf8.count, 1 << 20, "long enough to go through the temporary file")
        XCTAssertFalse(result.stdout.contains("\u{FFFD}"), "a character was cut at a piece's end")
        for i in [0, 174, 175, 1499, 2999] {
            XCTAssertTrue(result.stdout.contains("names window \"\(id)\(i)\""), "window \(i)'s finding is whole")
        }
        XCTAssertEqual(result.stdout.components(separatedBy: "[unknown-window]").count - 1, 3000)
    }

    func testTextLocationsAreFileLinesForJSONLinesAndSeqsForTraceFiles() throws {
        let lines = try String(contentsOfFile: editor, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[17].contains(#""window":"prefs-2""#), "line 18 is the duplicate window's open (seq 13)")
        let text = try replay(editor)
        XCTAssertTrue(text.stdout.contains("macos-editor-quit.jsonl:18: error: [duplicate-window] "), text.stdout)
        XCTAssertTrue(text.stdout.contains("(seq 13; related: 12)\n"), text.stdout)

        let folder = TemporaryFolder()
        let stored = folder.file("editor.lmdb")
        XCTAssertEqual(try replay("import", editor, "-o", stored).status, 0)
        let fromFile = try replay(stored)
        XCTAssertTrue(fromFile.stdout.contains("editor.lmdb: seq 13: error: [duplicate-window] "), fromFile.stdout)
        XCTAssertTrue(fromFile.stdout.contains(" (related: 12)\n"), fromFile.stdout)
        XCTAssertFalse(fromFile.stdout.contains("editor.lmdb:13:"), "a seq must not look like a line")
    }

    func testEveryFindingOfAJSONLinesTraceNamesTheLineOfItsEventWhateverLinesComeBetween() throws {
        let folder = TemporaryFolder()
        let generated = folder.file("g.jsonl")
        XCTAssertEqual(try replay("generate", "-o", generated, "--events", "6000", "--seed", "3", "--bug-rate", "300").status, 0)
        // Comments and blank lines at random places shift lines against seqs many times.
        var random = SplitMix64(seed: 11)
        var text = ""
        var eventLines: [Int] = [0]  // eventLines[seq] = line
        var line = 0
        for original in try String(contentsOfFile: generated, encoding: .utf8).split(separator: "\n") {
            while random.next() % 4 == 0 {
                text += random.next() % 2 == 0 ? "# a comment\n" : "\n"
                line += 1
            }
            text += original + "\n"
            line += 1
            if original.contains("\"event\"") { eventLines.append(line) }
        }
        let shifted = folder.write("shifted.jsonl", text)
        var configuration = RuleConfiguration()
        configuration.explore = true
        let report = try Replayer.replay(shifted, configuration: configuration)
        XCTAssertGreaterThan(report.findings.count, 100)
        for f in report.findings {
            XCTAssertEqual(f.line, eventLines[Int(f.seq)], "\(f.rule.rawValue) at seq \(f.seq)")
        }
    }

    func testSARIFHasRegionsForJSONLinesAndFingerprintsThatSurviveShiftedSeqs() throws {
        let sarif = try sarifResults(try replay(editor, "--format", "sarif").stdout)
        XCTAssertEqual(sarif.map(\.line), [18, 23])
        // One event more near the start shifts every seq and line after it; the fingerprints stay.
        let folder = TemporaryFolder()
        var lines = try String(contentsOfFile: editor, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let launchIndex = try XCTUnwrap(lines.firstIndex { $0.contains(#""event":"launch""#) })
        lines.insert(#"{"event":"mark","t":0,"label":"inserted"}"#, at: launchIndex + 1)
        let moved = folder.write("macos-editor-quit.jsonl", lines.joined(separator: "\n"))
        let shifted = try sarifResults(try replay(moved, "--format", "sarif").stdout)
        XCTAssertEqual(shifted.map(\.line), [19, 24])
        XCTAssertEqual(shifted.map(\.seq), [14, 19])
        XCTAssertEqual(shifted.map(\.fingerprint), sarif.map(\.fingerprint))
        XCTAssertNotEqual(sarif[0].fingerprint, sarif[1].fingerprint)
        // A trace file has no lines: no region, but the same fingerprints.
        let stored = folder.file("editor.lmdb")
        XCTAssertEqual(try replay("import", editor, "-o", stored).status, 0)
        let fromFile = try sarifResults(try replay(stored, "--format", "sarif").stdout)
        XCTAssertEqual(fromFile.map(\.line), [nil, nil])
        XCTAssertEqual(fromFile.map(\.fingerprint), sarif.map(\.fingerprint))
    }

    func testRepeatedFindingsGetDistinctFingerprints() {
        var fingerprints = FindingFingerprints()
        let a = Finding(rule: .phaseSkip, severity: .warning, seq: 4, related: [], message: "Window \"w1\" at seq 4 skipped")
        let b = Finding(rule: .phaseSkip, severity: .warning, seq: 90, related: [], message: "Window \"w1\" at seq 90 skipped")
        let c = Finding(rule: .phaseSkip, severity: .warning, seq: 91, related: [], message: "Window \"w2\" at seq 91 skipped")
        let first = fingerprints.next(a), second = fingerprints.next(b), third = fingerprints.next(c)
        XCTAssertTrue(first.hasSuffix(":1") && second.hasSuffix(":2") && third.hasSuffix(":1"), "\(first) \(second) \(third)")
        XCTAssertEqual(first.dropLast(2), second.dropLast(2), "only the seq differs")
        XCTAssertNotEqual(first.dropLast(2), third.dropLast(2), "another window is another finding")
    }

    func testGitHubFormatWritesEscapedAnnotationsAndAJobSummary() throws {
        let folder = TemporaryFolder()
        let trace = folder.write("odd,name:1.jsonl", hostile)
        let summary = folder.file("summary.md")
        let result = try runReplay([trace, "--format", "github", "--assert"], environment: ["GITHUB_STEP_SUMMARY": summary])
        XCTAssertEqual(result.status, 1)
        let escapedPath = trace.replacingOccurrences(of: ",", with: "%2C").replacingOccurrences(of: ":", with: "%3A")
        XCTAssertTrue(result.stdout.hasPrefix("::error file=\(escapedPath),line=5,title=unsaved-at-exit (seq 5)::"), result.stdout)
        XCTAssertTrue(result.stdout.contains(#""a,b:c%0A\u{1}%25""#), "the message escapes the newline and percent, not the comma: \(result.stdout)")
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, result.stdout)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1)
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("## replay: 1 error, 0 warnings in 1 trace\n"), markdown)
        XCTAssertTrue(markdown.contains("| 5 | 1 | 1 | 0 |"), markdown)
        XCTAssertTrue(markdown.contains("| error | unsaved-at-exit |"), markdown)
        XCTAssertFalse(markdown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, markdown)
        // Appended, not replaced: a second step adds its own.
        _ = try runReplay([notes, "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary])
        let both = try String(contentsOfFile: summary, encoding: .utf8)
        XCTAssertTrue(both.hasPrefix(markdown) && both.count > markdown.count)
        // Without the variable nothing is written anywhere but standard output.
        XCTAssertEqual(try replay(notes, "--format", "github").stdout.split(separator: "\n").count, 2)
    }

    func testWorkflowCommandEscaping() {
        XCTAssertEqual(GitHubWorkflow.escapeData("50% a\r\nb,c:d"), "50%25 a%0D%0Ab,c:d")
        XCTAssertEqual(GitHubWorkflow.escapeProperty("50% a\r\nb,c:d"), "50%25 a%0D%0Ab%2Cc%3Ad")
        XCTAssertEqual(GitHubWorkflow.escapeData("\u{1B}[31m"), "\\u{1B}[31m")
    }

    // MARK: 2. JUnit

    func testJUnitIsValidXMLWithControlCharactersAndReportsRulesThatDidNotRunAsSkipped() throws {
        let folder = TemporaryFolder()
        let trace = folder.write("hostile.jsonl", hostile)
        let junit = try replay(trace, "--format", "junit").stdout
        XCTAssertFalse(junit.contains("&#"), "XML 1.0 has no character references for C0 controls")
        XCTAssertTrue(junit.contains(#"\u{1B}]0;pwned\u{7}"#), junit)
        XCTAssertNoThrow(try XMLDocument(xmlString: junit))
        try assertPythonParsesXML(junit)
        // kill-exposure did not run (no --explore): skipped, not passed.
        XCTAssertTrue(junit.contains("name=\"kill-exposure\">\n      <skipped message=\"a what-if rule: it runs only with --explore\"/>"), junit)
        XCTAssertTrue(junit.contains("skipped=\"1\""), junit)

        let rules = folder.write("rules.json", #"{"rules":{"phase-skip":"off","unclean-exit":"off"}}"#)
        let configured = try replay(trace, "--format", "junit", "--explore", "--rules", rules).stdout
        try assertPythonParsesXML(configured)
        XCTAssertTrue(configured.contains("name=\"phase-skip\">\n      <skipped message=\"switched off by the rules file (--rules)\"/>"), configured)
        XCTAssertTrue(configured.contains("name=\"unclean-exit\">\n      <skipped"), configured)
        XCTAssertTrue(configured.contains("name=\"kill-exposure\"/>") || configured.contains("name=\"kill-exposure\">\n      <system-out>")
                      || configured.contains("name=\"kill-exposure\">\n      <failure"), configured)
        XCTAssertTrue(configured.contains("skipped=\"2\""), configured)
    }

    // MARK: 3. Escaping in text

    func testTextOutputNeverPrintsControlCharactersFromTheTrace() throws {
        let folder = TemporaryFolder()
        let trace = folder.write("hostile.jsonl", hostile)
        for arguments in [[trace], [trace, "--state", "--at", "4"], ["dump", trace], ["stats", trace]] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, "\(arguments): \(result.stdout)")
            if arguments.count == 1 || arguments[1] == "--state" || arguments[0] == "dump" {
                XCTAssertTrue(result.stdout.contains(#"\u{1B}]0;pwned\u{7}"#), "\(arguments): \(result.stdout)")
            }
        }
        // Errors quote the input too.
        let bad = folder.write("bad.jsonl", launch() + "\n" + #"{"event":"phase","t":1,"phase":"\u001b[2J"}"# + "\n")
        let error = try replay(bad)
        XCTAssertEqual(error.status, 2)
        XCTAssertFalse(error.stderr.contains("\u{1B}"), error.stderr)
        XCTAssertTrue(error.stderr.contains(#"\u{1B}[2J"#), error.stderr)
    }

    // MARK: 4. Empty traces

    func testAnEmptyOrHeaderOnlyTraceFailsAssert() throws {
        let folder = TemporaryFolder()
        for (name, text) in [("empty.jsonl", ""), ("header.jsonl", "{\"format\":\"lifecycle-trace\",\"version\":1}\n# nothing\n")] {
            let path = folder.write(name, text)
            XCTAssertEqual(try replay(path).status, 0, "without --assert an empty trace is only reported")
            let result = try replay(path, "--assert", "--strict")
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.stderr.contains("replay: assertion failed: \(path): the trace has no events"), result.stderr)
            XCTAssertTrue(result.stdout.contains("0 events"), result.stdout)
        }
        // In a folder, one empty trace fails the whole check.
        folder.write("good.jsonl", try String(contentsOfFile: "\(repositoryRoot)/traces/rules/lost-update-negative.jsonl", encoding: .utf8))
        XCTAssertEqual(try replay(folder.path, "--assert").status, 1)
    }

    // MARK: 5. An unreadable trace among others

    func testAnUnreadableTraceInAFolderIsRecordedInTheReportOfTheOthers() throws {
        let folder = TemporaryFolder()
        folder.write("a-good.jsonl", try String(contentsOfFile: notes, encoding: .utf8))
        folder.write("b-bad.jsonl", launch() + "\n{\"event\":\"phase\",\"t\":1,\"phase\":\"asleep\"}\n")
        folder.write("c-damaged.lmdb", String(repeating: "x", count: 9000))

        let sarif = try replay(folder.path, "--format", "sarif")
        XCTAssertEqual(sarif.status, 2)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual((run["results"] as? [Any])?.count, 2, "the good trace's findings are there")
        let invocation = try XCTUnwrap((run["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
        let notifications = try XCTUnwrap(invocation["toolExecutionNotifications"] as? [[String: Any]])
        XCTAssertEqual(notifications.count, 2)
        let texts = notifications.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        XCTAssertTrue(texts[0].contains("b-bad.jsonl: line 2: seq 2: unknown phase"), "\(texts)")
        XCTAssertTrue(texts[1].contains("c-damaged.lmdb"), "\(texts)")
        XCTAssertTrue(sarif.stderr.contains("replay: error: \(folder.path)/b-bad.jsonl: line 2"), sarif.stderr)

        let json = try replay(folder.path, "--format", "json")
        XCTAssertEqual(json.status, 2)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["reports"] as? [Any])?.count, 1)
        let errors = try XCTUnwrap(report["errors"] as? [[String: Any]])
        XCTAssertEqual(errors.map { $0["trace"] as? String }, ["\(folder.path)/b-bad.jsonl", "\(folder.path)/c-damaged.lmdb"])
        XCTAssertEqual(errors[0]["line"] as? Int, 2)

        let junit = try replay(folder.path, "--format", "junit")
        XCTAssertEqual(junit.status, 2)
        try assertPythonParsesXML(junit.stdout)
        XCTAssertTrue(junit.stdout.contains("errors=\"2\""), junit.stdout)
        let text = try replay(folder.path, "--assert")
        XCTAssertEqual(text.status, 2, "unreadable input outranks findings")
        XCTAssertTrue(text.stdout.contains("total: 1 trace (and 2 that could not be read)"), text.stdout)
        let github = try replay(folder.path, "--format", "github")
        XCTAssertTrue(github.stdout.contains("::error file=\(folder.path)/b-bad.jsonl,line=2,title=replay could not read the trace::"), github.stdout)
    }

    // MARK: 6. --state --at

    func testStateAtASeqOutOfRangeSaysHowLongTheTraceIs() throws {
        let zero = try replay(notes, "--state", "--at", "0")
        XCTAssertEqual(zero.status, 2)
        XCTAssertTrue(zero.stderr.contains("there is no event with seq 0: the trace has 13 events, seqs 1 to 13; pass --at with a seq from 1 to 13 (seqs start at 1)"), zero.stderr)
        let past = try replay(notes, "--state", "--at", "14")
        XCTAssertEqual(past.status, 2)
        XCTAssertTrue(past.stderr.contains("the trace has 13 events, seqs 1 to 13"), past.stderr)
        XCTAssertEqual(try replay(notes, "--state", "--at", "13").status, 0)
        let folder = TemporaryFolder()
        let empty = try replay(folder.write("e.jsonl", ""), "--state", "--at", "1")
        XCTAssertTrue(empty.stderr.contains("the trace has no events"), empty.stderr)
    }

    // MARK: 11. Did you mean

    func testAMistypedCommandWithOptionsGetsADidYouMean() throws {
        for (arguments, meant) in [(["improt", "a.jsonl", "-o", "b.lmdb"], "import"), (["expotr", "t.lmdb", "--salvage"], "export"),
                                   (["generat", "-o", "g.lmdb", "--events", "5"], "generate"),
                                   (["stast", "t.lmdb", "--format", "json"], "stats")] {
            let result = try runProgram(replayExecutable, arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("'\(arguments[0])'. Did you mean `replay \(meant)`?")
                          || result.stderr.contains("\(arguments[0]): no such file or folder. Did you mean `replay \(meant)`?"), result.stderr)
        }
        // An existing file of that name is a trace, not a typo.
        let folder = TemporaryFolder()
        let file = folder.write("improt", "")
        let result = try replay(file, "--bogus-option")
        XCTAssertEqual(result.status, 2)
        XCTAssertFalse(result.stderr.contains("Did you mean `replay"), result.stderr)
    }

    // MARK: 12. Version

    func testVersionComesFromTheLibrary() throws {
        let result = try replay("--version")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, LifecycleLogVersion.current + "\n")
        XCTAssertTrue(try replay(notes, "--format", "sarif").stdout.contains("\"version\":\"\(LifecycleLogVersion.current)\""))
        let license = try String(contentsOfFile: "\(repositoryRoot)/LICENSE", encoding: .utf8)
        XCTAssertTrue(license.contains("Apache License") && license.contains("Version 2.0, January 2004") && license.contains("END OF TERMS AND CONDITIONS"))
        XCTAssertTrue(license.contains("the LifecycleLog authors"))
    }

    // MARK: Helpers

    private struct SARIFResult { var line: Int?; var seq: Int; var fingerprint: String }

    private func sarifResults(_ text: String) throws -> [SARIFResult] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        return try results.map { result in
            let location = try XCTUnwrap((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let line = (location["region"] as? [String: Any])?["startLine"] as? Int
            let seq = try XCTUnwrap((result["properties"] as? [String: Any])?["seq"] as? Int)
            let fingerprint = try XCTUnwrap((result["partialFingerprints"] as? [String: String])?[FindingFingerprints.key])
            return SARIFResult(line: line, seq: seq, fingerprint: fingerprint)
        }
    }
}

/// Parses `xml` with Python's `xml.etree.ElementTree` (expat), a second, strict XML 1.0 parser.
func assertPythonParsesXML(_ xml: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let result = try runProgram("/usr/bin/env", ["python3", "-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read()); print('ok')"], stdin: xml)
    XCTAssertEqual(result.stdout, "ok\n", "python3 rejects the XML: \(result.stderr)", file: file, line: line)
}

/// Runs the built `replay` with extra environment variables (and never the caller's `GITHUB_STEP_SUMMARY`).
func runReplay(_ arguments: [String], environment: [String: String], stdin: String? = nil) throws -> ProcessResult {
    let inherited = ProcessInfo.processInfo.environment.filter { $0.key != "GITHUB_STEP_SUMMARY" }
    return try runProgram(replayExecutable, arguments, stdin: stdin, environment: inherited.merging(environment) { $1 })
}
