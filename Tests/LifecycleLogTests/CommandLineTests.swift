import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// The built `replay`, run as a user's CI runs it.
final class CommandLineTests: XCTestCase {
    private let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"
    private let clean = "\(repositoryRoot)/traces/rules/lost-update-negative.jsonl"

    func testAssertExitsOneOnErrorsZeroWhenCleanAndTwoOnBadInput() throws {
        XCTAssertEqual(try replay(example).status, 0, "without --assert findings do not fail")
        let failing = try replay(example, "--assert")
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stdout.contains("notes-ipad-killed-in-background.jsonl:10: error: [lost-update]"), failing.stdout)
        XCTAssertEqual(try replay(clean, "--assert").status, 0)
        let folder = TemporaryFolder()
        let bad = folder.write("bad.jsonl", launch() + "\n{\"event\":\"phase\",\"t\":1,\"phase\":\"asleep\"}\n")
        let result = try replay(bad, "--assert")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("bad.jsonl: line 2: seq 2: unknown phase \"asleep\""), result.stderr)
        XCTAssertEqual(try replay("--no-such-option").status, 2)
        XCTAssertEqual(try replay(example, "--format", "yaml").status, 2)
        XCTAssertEqual(try replay(folder.file("missing.lmdb")).status, 2)
    }

    func testStrictFailsOnWarnings() throws {
        let warningsOnly = "\(repositoryRoot)/traces/rules/phase-skip.jsonl"
        XCTAssertEqual(try replay(warningsOnly, "--assert").status, 0)
        XCTAssertEqual(try replay(warningsOnly, "--assert", "--strict").status, 1)
    }

    func testEveryFormatIsByteIdenticalAcrossRunsAndBetweenJSONLinesAndTraceFile() throws {
        let folder = TemporaryFolder()
        let trace = folder.file("g.lmdb")
        try TraceInterchange.generate(.init(events: 5000, seed: 21, windows: 6), to: trace)
        for format in ReportFormat.allCases {
            let first = try replay(trace, "--explore", "--format", format.rawValue)
            let second = try replay(trace, "--explore", "--format", format.rawValue)
            XCTAssertEqual(first.status, 0)
            XCTAssertFalse(first.stdout.isEmpty)
            XCTAssertEqual(first.stdout, second.stdout, "\(format) output differs between runs")
        }
        let exported = folder.file("g.jsonl")
        XCTAssertEqual(try replay("export", trace, "-o", exported).status, 0)
        let fromFile = try replay(trace, "--format", "json").stdout.replacingOccurrences(of: trace, with: "T")
        let fromLines = try replay(exported, "--format", "json").stdout.replacingOccurrences(of: exported, with: "T")
        XCTAssertEqual(fromFile, fromLines)
    }

    func testAFolderIsReplayedInParallelAndReportedInNameOrder() throws {
        let result = try replay("\(repositoryRoot)/traces/rules", "--format", "json")
        XCTAssertEqual(result.status, 0)
        let names = result.stdout.components(separatedBy: "{\"trace\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertGreaterThan(names.count, 20)
        XCTAssertEqual(names, names.sorted())
    }

    func testJUnitAndSARIFAreWellFormed() throws {
        let junit = try replay(example, "--format", "junit").stdout
        XCTAssertNoThrow(try XMLDocument(xmlString: junit))
        XCTAssertTrue(junit.contains("<testcase classname=\"\(example)\" name=\"lost-update\">"))
        XCTAssertTrue(junit.contains("<failure"))
        let sarif = try replay(example, "--format", "sarif").stdout
        let object = try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any]
        XCTAssertEqual(object?["version"] as? String, "2.1.0")
        let runs = object?["runs"] as? [[String: Any]]
        XCTAssertEqual((runs?.first?["results"] as? [Any])?.count, 2)
    }

    func testStateAtASeqShowsWindowsPhasesAndUnsavedKeys() throws {
        let table = try replay(example, "--state", "--at", "8")
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.contains("app phase active"), table.stdout)
        XCTAssertTrue(table.stdout.contains("notes  shared  2        0      unsaved"), table.stdout)
        let json = try replay(example, "--state", "--at", "12", "--format", "json").stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual(object?["appPhase"] as? String, "background")
        XCTAssertEqual((object?["windows"] as? [Any])?.count, 2)
        XCTAssertEqual(try replay(example, "--state", "--at", "99").status, 2)
    }

    func testExpectShowsADiffAndUpdateExpectedWritesTheGoldenFile() throws {
        let folder = TemporaryFolder()
        let expected = folder.file("expected.json")
        XCTAssertEqual(try replay(example, "--expect", expected, "--update-expected").status, 0)
        XCTAssertEqual(try replay(example, "--expect", expected).status, 0)
        let text = try String(contentsOfFile: expected, encoding: .utf8)
        try text.replacingOccurrences(of: "\"seq\":12", with: "\"seq\":11").write(toFile: expected, atomically: true, encoding: .utf8)
        let result = try replay(example, "--expect", expected)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("(expected −, actual +)"))
        XCTAssertTrue(result.stdout.contains("−   {\"rule\":\"missed-background-save\",\"severity\":\"error\",\"seq\":11"), result.stdout)
        XCTAssertTrue(result.stdout.contains("+   {\"rule\":\"missed-background-save\",\"severity\":\"error\",\"seq\":12"), result.stdout)
        XCTAssertTrue(result.stdout.contains("To fix,"))
    }

    func testExportToAFileIsAtomicAndImportRefusesToLeaveAnything() throws {
        let folder = TemporaryFolder()
        let trace = folder.file("t.lmdb")
        XCTAssertEqual(try replay("import", example, "-o", trace).status, 0)
        XCTAssertEqual(try replay("export", trace, "-o", folder.file("out.jsonl")).status, 0)
        XCTAssertEqual(folder.contents, ["out.jsonl", "t.lmdb"])
        let bad = folder.write("bad.jsonl", "{\"event\":\"launch\"}")
        let result = try replay("import", bad, "-o", folder.file("new.lmdb"))
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("line 1"), result.stderr)
        XCTAssertEqual(folder.contents, ["bad.jsonl", "out.jsonl", "t.lmdb"])
    }

    func testImportFromStandardInput() throws {
        let folder = TemporaryFolder()
        let result = try replay("import", "-", "-o", folder.file("s.lmdb"), stdin: launch() + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Trace(path: folder.file("s.lmdb")).eventCount, 1)
    }

    func testNoInputFileCrashesTheTool() throws {
        let folder = TemporaryFolder()
        var random = SplitMix64(seed: 4)
        var inputs: [String] = [folder.write("empty.lmdb", ""), folder.write("empty.jsonl", "")]
        for i in 0..<12 {
            let bytes = (0..<(Int(random.next() % 20_000) + 1)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let path = folder.file("random\(i).\(i % 2 == 0 ? "lmdb" : "jsonl")")
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            inputs.append(path)
        }
        // A real trace with bytes flipped in its data pages.
        let trace = folder.file("real.lmdb")
        try TraceInterchange.generate(.init(events: 3000, seed: 8), to: trace)
        // Damaged pages send liblmdb (and its callers) outside the file: a fault
        // the guard must catch. 60 copies with 1, 5 or 40 bytes flipped.
        let original = try Data(contentsOf: URL(fileURLWithPath: trace))
        for i in 0..<60 {
            var data = original
            let damaged = folder.file("damaged\(i).lmdb")
            for _ in 0..<[1, 5, 40][i % 3] {
                data[8192 + Int(random.next() % UInt64(data.count - 8192))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            try data.write(to: URL(fileURLWithPath: damaged))
            inputs.append(damaged)
        }
        let truncated = folder.file("truncated.lmdb")
        try Data(try Data(contentsOf: URL(fileURLWithPath: trace)).prefix(20_000)).write(to: URL(fileURLWithPath: truncated))
        inputs.append(truncated)
        for input in inputs {
            let commands = input.hasSuffix(".lmdb")
                ? [[input, "--assert"], ["export", "--salvage", input], ["stats", input]]
                : [[input, "--assert"], ["import", input, "-o", folder.file("x.lmdb")]]
            for arguments in commands {
                let result = try runProgram(replayExecutable, arguments)
                XCTAssertFalse(result.signaled, "replay \(arguments) crashed: \(result.stderr)")
                XCTAssertTrue([0, 1, 2].contains(result.status), "replay \(arguments) exited \(result.status)")
                if result.status == 2 { XCTAssertTrue(result.stderr.contains("replay: error: "), result.stderr) }
            }
        }
    }

    func testAStreamedReportIsByteForByteTheCollectedOneEvenWhenItSpillsToDisk() throws {
        let folder = TemporaryFolder()
        let trace = folder.file("many-findings.lmdb")
        try TraceInterchange.generate(.init(events: 120_000, seed: 6, bugRate: 400), to: trace)
        let collected = try Replayer.replay(trace)
        XCTAssertGreaterThan(collected.json().utf8.count, 1 << 20, "the JSON report must be large enough to spill")
        for format in ReportFormat.allCases {
            let streamed = try replay(trace, "--format", format.rawValue)
            XCTAssertEqual(streamed.status, 0)
            XCTAssertEqual(streamed.stdout, ReportRenderer.render([collected], format: format), "\(format) differs when streamed")
        }
    }

    func testATraceMalformedHalfwayWritesNoReportOnlyItsError() throws {
        let folder = TemporaryFolder()
        var lines = try String(contentsOfFile: example, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.append(#"{"event":"phase","t":99999,"phase":"dozing"}"#)
        let broken = folder.write("broken.jsonl", lines.joined(separator: "\n"))
        for format in ReportFormat.allCases {
            let result = try replay(broken, "--format", format.rawValue)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("broken.jsonl: line 16: seq 14: unknown phase \"dozing\""), result.stderr)
            switch format {
            case .text, .json:
                XCTAssertEqual(result.stdout, "", "\(format): a half-written report was printed")
            case .junit, .sarif, .github:
                // A complete report that records the error, and none of the findings before it (issue 22).
                XCTAssertTrue(result.stdout.contains("unknown phase"), "\(format): \(result.stdout)")
                XCTAssertFalse(result.stdout.contains("lost-update ("), "\(format): a half-written report was printed")
                XCTAssertFalse(result.stdout.contains("\"ruleId\""), "\(format): a half-written report was printed")
                XCTAssertFalse(result.stdout.contains("<failure"), "\(format): a half-written report was printed")
            }
        }
    }
}
