import Foundation
import XCTest
@testable import LifecycleLog

/// Issue 30, items 3, 7 and 10: the `replay DIR --expect DIR [--assert]` gate must not pass when a
/// trace disappears or hides under another name, must replay a fixture with the options its
/// expected report was made with, and must give advice that works.
final class ExpectGateTests: XCTestCase {
    private let notes = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"
    private let clean = "\(repositoryRoot)/traces/rules/lost-update-negative.jsonl"
    private let killExposure = "\(repositoryRoot)/traces/explore/kill-exposure.jsonl"
    private let phaseSkip = "\(repositoryRoot)/traces/rules/phase-skip.jsonl"

    private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// A folder of traces `a.jsonl` and `b.jsonl` with their expected reports beside them.
    private func gatedFolder() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        folder.write("a.jsonl", try text(notes))
        folder.write("b.jsonl", try text(clean))
        let written = try replay(folder.path, "--expect", folder.path, "--update-expected")
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(try replay(folder.path, "--expect", folder.path).status, 0)
        return folder
    }

    // MARK: Item 3: a trace that disappears, or hides under another name

    func testAnExpectedReportWhoseTraceIsGoneFailsTheGate() throws {
        let folder = try gatedFolder()
        try FileManager.default.removeItem(atPath: folder.file("b.jsonl"))
        for assert in [false, true] {
            let result = try runProgram(replayExecutable, [folder.path, "--expect", folder.path] + (assert ? ["--assert"] : []))
            XCTAssertEqual(result.status, 1, "assert \(assert): " + result.stdout + result.stderr)
            XCTAssertTrue(result.stdout.contains("\(folder.path)/b.expected.json: there is no trace for this expected report (no b.jsonl"), result.stdout)
            XCTAssertTrue(result.stdout.contains("1 expected report has no trace"), result.stdout)
        }
        // Every trace gone: still the expected reports that have none, not "no traces" (or a pass).
        try FileManager.default.removeItem(atPath: folder.file("a.jsonl"))
        let none = try replay(folder.path, "--expect", folder.path)
        XCTAssertEqual(none.status, 1, none.stdout + none.stderr)
        XCTAssertTrue(none.stdout.contains("2 expected reports have no trace"), none.stdout)
        // Traces named one by one are the ones to check: the others' expected reports are not orphans.
        let folder2 = try gatedFolder()
        XCTAssertEqual(try replay(folder2.file("a.jsonl"), "--expect", folder2.path + "/").status, 0)
    }

    func testEveryFileOfAFolderIsReadAsWhatItHoldsAndTheRestIsNamed() throws {
        let folder = try gatedFolder()
        folder.write("c.txt", "notes about the traces\n")
        folder.write("e.json", try text(notes))  // a trace renamed
        XCTAssertEqual(try replay("import", clean, "-o", folder.file("g.trace")).status, 0)  // a trace file of another name
        folder.write("rules.json", #"{"rules":{"phase-skip":"off"}}"#)  // a JSON document that is no trace
        folder.write(".notes.jsonl", "not even JSON\n")  // hidden: not read
        folder.write("g.trace-lock", "")  // a lock file beside a trace file: not read
        folder.write("x.lmdb-lock", "")

        let plain = try replay(folder.path)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.contains("\(folder.path)/e.json:10: error: [lost-update]"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("\(folder.path)/g.trace: 10 events"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("total: 4 traces"), plain.stdout)
        XCTAssertTrue(plain.stderr.contains("warning: skipped \(folder.path)/c.txt: not a trace (neither LMDB nor JSON Lines)"), plain.stderr)
        XCTAssertTrue(plain.stderr.contains("warning: skipped \(folder.path)/rules.json: not a trace"), plain.stderr)
        XCTAssertFalse(plain.stderr.contains(".notes.jsonl") || plain.stderr.contains("-lock"), plain.stderr)
        // The rules file of the command is not a trace of the folder.
        let withRules = try replay(folder.path, "--rules", folder.file("rules.json"))
        XCTAssertFalse(withRules.stderr.contains("rules.json"), withRules.stderr)

        // The gate: the new traces have no expected reports, and c.txt and rules.json cannot be compared.
        let gate = try replay(folder.path, "--expect", folder.path)
        XCTAssertEqual(gate.status, 2, gate.stdout + gate.stderr)
        XCTAssertTrue(gate.stderr.contains("replay: error: \(folder.path)/c.txt: not a trace (neither LMDB nor JSON Lines), so --expect cannot compare it"), gate.stderr)
        XCTAssertTrue(gate.stderr.contains("replay: error: \(folder.path)/e.expected.json: there is no expected report for \(folder.path)/e.json"), gate.stderr)
        XCTAssertTrue(gate.stderr.contains("\(folder.path)/g.expected.json: there is no expected report for \(folder.path)/g.trace"), gate.stderr)
        XCTAssertTrue(gate.stderr.contains("\(folder.path)/rules.json: not a trace"), gate.stderr)

        // Writing the expected reports warns about the files that are no traces, and writes the others'.
        let update = try replay(folder.path, "--expect", folder.path, "--update-expected")
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stderr.contains("warning: skipped \(folder.path)/c.txt"), update.stderr)
        XCTAssertTrue(exists(folder.file("e.expected.json")) && exists(folder.file("g.expected.json")))
        XCTAssertFalse(exists(folder.file("c.expected.json")) || exists(folder.file("rules.expected.json")))
        XCTAssertEqual(try replay(folder.path, "--expect", folder.path).status, 2, "c.txt and rules.json still fail the gate")
        // Once they are gone, or a rules file the command names, the gate passes.
        try FileManager.default.removeItem(atPath: folder.file("c.txt"))
        let passes = try replay(folder.path, "--expect", folder.path, "--rules", folder.file("rules.json"))
        XCTAssertEqual(passes.status, 2, "--rules is not recorded by these reports: " + passes.stderr)
        try FileManager.default.removeItem(atPath: folder.file("rules.json"))
        let gated = try replay(folder.path, "--expect", folder.path)
        XCTAssertEqual(gated.status, 0, gated.stdout + gated.stderr)
        XCTAssertTrue(gated.stdout.contains("4 traces match their expected reports"), gated.stdout)

        // Renaming x.jsonl to x.json keeps it in the gate, compared with the same expected report.
        try FileManager.default.moveItem(atPath: folder.file("a.jsonl"), toPath: folder.file("a.json"))
        let renamed = try replay(folder.path, "--expect", folder.path)
        XCTAssertEqual(renamed.status, 0, renamed.stdout + renamed.stderr)
        XCTAssertTrue(renamed.stdout.contains("\(folder.path)/a.json: matches \(folder.path)/a.expected.json"), renamed.stdout)
        // Renamed to a name that hides what it is (text that is no trace any more): named, and the gate fails.
        try FileManager.default.moveItem(atPath: folder.file("a.json"), toPath: folder.file("a.txt"))
        folder.write("a.txt", "moved\n")
        let hidden = try replay(folder.path, "--expect", folder.path, "--assert")
        XCTAssertNotEqual(hidden.status, 0)
        XCTAssertTrue(hidden.stderr.contains("\(folder.path)/a.txt: not a trace"), hidden.stderr)
        XCTAssertTrue(hidden.stdout.contains("\(folder.path)/a.expected.json: there is no trace for this expected report"), hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("\(folder.path)/a.txt has its name but is not a trace"), hidden.stdout)
    }

    func testContentDetection() throws {
        let folder = TemporaryFolder()
        let cases: [(String, String, Replayer.FileContent)] = [
            ("header.x", "{\"format\":\"lifecycle-trace\",\"version\":2}\n", .jsonLines),
            ("comments.x", "# a fixture\n\n# more\n{\"t\":0,\"event\":\"launch\",\"platform\":\"iOS\"}\n", .jsonLines),
            ("bom.x", "\u{FEFF}{\"event\":\"mark\",\"t\":0,\"label\":\"x\"}\n", .jsonLines),
            ("report.x", "{\"trace\":\"a.jsonl\",\"events\":1}\n", .neither),
            ("rules.x", "{\"rules\":{}}", .neither),
            ("script.x", "#!/bin/sh\necho hi\n", .neither),
            ("text.x", "hello\n", .neither),
            ("empty.x", "", .neither),
            ("array.x", "[1,2]\n", .neither),
        ]
        for (name, contents, expected) in cases {
            XCTAssertEqual(Replayer.content(of: folder.write(name, contents)), expected, name)
        }
        XCTAssertEqual(try replay("import", clean, "-o", folder.file("stored.bin")).status, 0)
        XCTAssertEqual(Replayer.content(of: folder.file("stored.bin")), .traceFile)
        XCTAssertEqual(Replayer.content(of: folder.file("missing")), .neither)
    }

    // MARK: Item 7: expected reports record the options they were made with

    func testAMinimizedWhatIfFixturePassesItsOwnCheckAndKeepsItsOption() throws {
        let folder = TemporaryFolder()
        let fixture = folder.file("fixtures/k.jsonl"), expected = folder.file("fixtures/k.expected.json")
        try FileManager.default.createDirectory(atPath: folder.file("fixtures"), withIntermediateDirectories: true)
        let minimized = try replay("minimize", killExposure, "--rule", "kill-exposure", "-o", fixture)
        XCTAssertEqual(minimized.status, 0, minimized.stderr)
        let written = try text(expected)
        XCTAssertTrue(written.hasPrefix(#"{"trace":"k.jsonl","options":{"explore":true},"events":"#), written)
        XCTAssertTrue(written.contains(#""rule":"kill-exposure""#), written)

        // Without --explore on the command line: the report's own option is used.
        let single = try replay(fixture, "--expect", expected)
        XCTAssertEqual(single.status, 0, single.stdout + single.stderr)
        XCTAssertTrue(single.stdout.contains("replayed with --explore, as it records"), single.stdout)
        XCTAssertEqual(try replay(folder.file("fixtures"), "--expect", folder.file("fixtures")).status, 0)
        XCTAssertEqual(try replay(folder.file("fixtures"), "--expect", folder.file("fixtures"), "--explore").status, 0, "agrees")
        // --update-expected without options keeps the recorded one: the finding stays in the golden file.
        XCTAssertEqual(try replay(fixture, "--expect", expected, "--update-expected").status, 0)
        XCTAssertEqual(try text(expected), written)

        // An expected report of an earlier version (no options) with kill-exposure findings: the
        // hint does not suggest writing them out.
        try written.replacingOccurrences(of: #","options":{"explore":true}"#, with: "").write(toFile: expected, atomically: true, encoding: .utf8)
        let old = try replay(fixture, "--expect", expected)
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.stdout.contains("write it again with --update-expected --explore"), old.stdout)
        // It means "no options": --explore contradicts it, and says so.
        let contradicted = try replay(fixture, "--expect", expected, "--explore")
        XCTAssertEqual(contradicted.status, 2)
        XCTAssertTrue(contradicted.stderr.contains("--explore was given, but the expected report \(expected) was made without --explore"), contradicted.stderr)
        XCTAssertEqual(try replay(fixture, "--expect", expected, "--explore", "--update-expected").status, 0)
        XCTAssertEqual(try text(expected), written)

        // An option this version does not know is an error, not ignored.
        try written.replacingOccurrences(of: #"{"explore":true}"#, with: #"{"explore":true,"sampling":2}"#).write(toFile: expected, atomically: true, encoding: .utf8)
        let unknown = try replay(fixture, "--expect", expected)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains(#"records the option "sampling", which this version of replay does not know"#), unknown.stderr)
    }

    func testARulesFileIsRecordedRelativeToTheExpectedReportAndUsed() throws {
        let folder = TemporaryFolder()
        for sub in ["fixtures", "rules"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        let rules = folder.write("rules/strict.json", #"{"rules":{"phase-skip":"error"}}"#)
        let other = folder.write("rules/other.json", #"{"rules":{"phase-skip":"off"}}"#)
        let fixture = folder.file("fixtures/p.jsonl"), expected = folder.file("fixtures/p.expected.json")
        XCTAssertEqual(try replay("minimize", phaseSkip, "--rule", "phase-skip", "--rules", rules, "-o", fixture).status, 0)
        let written = try text(expected)
        XCTAssertTrue(written.hasPrefix(#"{"trace":"p.jsonl","options":{"rules":"../rules/strict.json"},"#), written)
        XCTAssertTrue(written.contains(#""severity":"error""#), written)

        // Replayed with the recorded rules file, found from the expected report's folder, from anywhere.
        let result = try runProgram(replayExecutable, ["fixtures/p.jsonl", "--expect", "fixtures/p.expected.json"], currentDirectory: folder.path)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("replayed with --rules fixtures/../rules/strict.json"), result.stdout)
        XCTAssertEqual(try replay(fixture, "--expect", expected).status, 0)
        XCTAssertEqual(try replay(fixture, "--expect", expected, "--rules", rules).status, 0, "the same file agrees")
        // Another rules file contradicts it.
        let contradicted = try replay(fixture, "--expect", expected, "--rules", other)
        XCTAssertEqual(contradicted.status, 2)
        XCTAssertTrue(contradicted.stderr.contains("was made with another rules file"), contradicted.stderr)
        // --update-expected with --rules records the new file.
        XCTAssertEqual(try replay(fixture, "--expect", expected, "--rules", other, "--update-expected").status, 0)
        XCTAssertTrue(try text(expected).hasPrefix(#"{"trace":"p.jsonl","options":{"rules":"../rules/other.json"},"#))
        // A recorded rules file that is gone fails, naming it.
        try FileManager.default.removeItem(atPath: other)
        let gone = try replay(fixture, "--expect", expected)
        XCTAssertEqual(gone.status, 2)
        XCTAssertTrue(gone.stderr.contains("other.json: cannot read the rules file"), gone.stderr)
        XCTAssertTrue(gone.stderr.contains("(the rules file that \(expected) records in its options)"), gone.stderr)
    }

    func testExpectedReportOptionsRoundTripAndOldFilesHaveNone() throws {
        let report = try Replayer.replay(killExposure)
        let plain = ExpectedReport.render(report)
        XCTAssertFalse(plain.contains("options"))
        XCTAssertEqual(try ExpectedReport.options(in: plain, path: "p"), ExpectedReport.Options())
        let options = ExpectedReport.Options(explore: true, rules: "../r \"1\".json")
        let rendered = ExpectedReport.render(report, options: options)
        XCTAssertEqual(try ExpectedReport.options(in: rendered, path: "p"), options)
        XCTAssertNil(try ExpectedReport.difference(report, expectedText: rendered, expectedPath: "p"), "options are not compared")
        XCTAssertEqual(options.rulesPath(expectedAt: "a/b/x.expected.json"), "a/b/../r \"1\".json")
        XCTAssertEqual(ExpectedReport.Options(rules: "/abs.json").rulesPath(expectedAt: "a/x.expected.json"), "/abs.json")
        // Every expected report in traces/ is readable, and only traces/explore/ records an option.
        let root = "\(repositoryRoot)/traces"
        for name in try XCTUnwrap(FileManager.default.subpaths(atPath: root)) where name.hasSuffix(".expected.json") {
            let recorded = try ExpectedReport.options(in: try text("\(root)/\(name)"), path: name)
            XCTAssertEqual(recorded, ExpectedReport.Options(explore: name.hasPrefix("explore/")), name)
        }
    }

    // MARK: Item 10: advice that works

    func testNoExpectedReportsAtAllGiveOneCommandForTheFolder() throws {
        let folder = TemporaryFolder()
        for name in ["a", "b", "c"] { folder.write("\(name).jsonl", try text(clean)) }
        let result = try replay(folder.path, "--expect", folder.path, "--explore")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.components(separatedBy: "create them with").count, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains("create it with"), result.stderr)
        XCTAssertTrue(result.stderr.contains("there is no expected report for any of the 3 traces; create them with: replay \(folder.path) --expect \(folder.path) --explore --update-expected"), result.stderr)
        XCTAssertTrue(result.stdout.contains("expect: none of the 3 traces has an expected report"), result.stdout)
        // The command works.
        XCTAssertEqual(try replay(folder.path, "--expect", folder.path, "--explore", "--update-expected").status, 0)
        XCTAssertEqual(try replay(folder.path, "--expect", folder.path).status, 0)
        // One missing among others: the command for that trace, with the options.
        try FileManager.default.removeItem(atPath: folder.file("b.expected.json"))
        folder.write("b.jsonl", try text(clean))
        let one = try replay(folder.path, "--expect", folder.path, "--explore")
        XCTAssertEqual(one.status, 2)
        XCTAssertTrue(one.stderr.contains("create it with: replay \(folder.path)/b.jsonl --expect \(folder.path)/b.expected.json --explore --update-expected"), one.stderr)
    }

    func testTwoTracesWithOneExpectedReportAreAnErrorNamingBoth() throws {
        let folder = TemporaryFolder()
        folder.write("x.jsonl", try text(notes))
        XCTAssertEqual(try replay("import", clean, "-o", folder.file("x.lmdb")).status, 0)
        folder.write("y.jsonl", try text(clean))
        for update in [true, false] {
            let result = try runProgram(replayExecutable, [folder.path, "--expect", folder.path] + (update ? ["--update-expected"] : []))
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(folder.path)/x.expected.json: \(folder.path)/x.jsonl and \(folder.path)/x.lmdb would share this expected report"), result.stderr)
            XCTAssertFalse(exists(folder.file("x.expected.json")), "nothing written")
            XCTAssertFalse(exists(folder.file("y.expected.json")), "nothing written")
        }
    }
}
