import Foundation
import XCTest
@testable import LifecycleLog
import LifecycleLogRules

/// `replay --write-baseline` and `--baseline` (issue 32: 2, spec/baseline.md): a baseline written on
/// one folder makes a second run pass until one new bug is planted, which then fails it alone; a
/// bug fixed since is listed as absent; SARIF gives every result its baselineState.
final class FindingBaselineTests: XCTestCase {
    private let rules = "\(repositoryRoot)/traces/rules"

    private func replay(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try runProgram(replayExecutable, arguments)
        return (r.status, r.stdout, r.stderr)
    }

    /// A folder holding copies of `fixtures` (names under traces/rules, without .jsonl).
    private func folder(_ fixtures: [String], in temporary: TemporaryFolder) throws -> String {
        let path = temporary.file("traces")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in fixtures {
            try FileManager.default.copyItem(atPath: "\(rules)/\(name).jsonl", toPath: "\(path)/\(name).jsonl")
        }
        return path
    }

    func testABaselinePassesUntilANewBugAndListsTheFixedOnes() throws {
        let temporary = TemporaryFolder()
        let traces = try folder(["lost-update-across-runs", "missed-background-save-shared", "kill-user-inactive-unsaved"], in: temporary)
        let file = temporary.file("baseline.json")
        XCTAssertEqual(try replay(traces, "--assert").status, 1, "the folder has errors")
        let written = try replay(traces, "--write-baseline", file)
        XCTAssertEqual(written.status, 0, written.stderr)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(#"{"format":"lifecycle-baseline","version":1,"findings":["#), text)
        XCTAssertEqual(text.components(separatedBy: "\"fingerprint\"").count - 1, 3)
        // The same findings give the same bytes.
        XCTAssertEqual(try replay(traces, "--write-baseline", temporary.file("again.json")).status, 0)
        XCTAssertEqual(try String(contentsOfFile: temporary.file("again.json"), encoding: .utf8), text)

        let passing = try replay(traces, "--baseline", file, "--assert")
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)
        XCTAssertTrue(passing.stdout.contains("3 findings in it not shown; 0 entries no finding has any more"), passing.stdout)

        // One new bug fails the run, alone; a bug fixed since is absent.
        try FileManager.default.copyItem(atPath: "\(rules)/unsaved-dismiss.jsonl", toPath: "\(traces)/unsaved-dismiss.jsonl")
        try FileManager.default.removeItem(atPath: "\(traces)/missed-background-save-shared.jsonl")
        let failing = try replay(traces, "--baseline", file, "--assert")
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stdout.components(separatedBy: ": error: [").count - 1, 1, failing.stdout)
        XCTAssertTrue(failing.stdout.contains("[unsaved-dismiss]"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("1 entry no finding has any more:\n  0c4986d7b2ab7a70 [missed-background-save]"), failing.stdout)
        XCTAssertTrue(failing.stderr.contains("unsaved-dismiss.jsonl: 1 error finding"), failing.stderr)

        // SARIF: every result with its state, the absent entry as a result of its own.
        let sarif = try replay(traces, "--baseline", file, "--format", "sarif")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let states = results.map { "\($0["ruleId"]!)=\($0["baselineState"]!)" }.sorted()
        XCTAssertEqual(states, ["lost-update=unchanged", "missed-background-save=absent", "unsaved-at-exit=unchanged", "unsaved-dismiss=new"])
        // Without --baseline, SARIF has no baselineState.
        XCTAssertFalse(try replay(traces, "--format", "sarif").stdout.contains("baselineState"))
    }

    /// `replay summary` writes and reads the same baselines: one written by either passes the other.
    func testSummaryAndReplayShareTheirBaselines() throws {
        let temporary = TemporaryFolder()
        let traces = try folder(["lost-update-across-runs", "unsaved-dismiss", "kill-user-inactive-unsaved"], in: temporary)
        let fromSummary = temporary.file("summary.json")
        XCTAssertEqual(try replay("summary", traces, "--write-baseline", fromSummary).status, 0)
        XCTAssertEqual(try replay(traces, "--baseline", fromSummary, "--assert").status, 0)
        XCTAssertEqual(try replay("summary", traces, "--assert").status, 1)
        let summary = try replay("summary", traces, "--baseline", fromSummary, "--assert")
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertTrue(summary.stdout.contains("3 groups (3 findings) in it not shown"), summary.stdout)
        try FileManager.default.copyItem(atPath: "\(rules)/missed-background-save-shared.jsonl", toPath: "\(traces)/missed-background-save-shared.jsonl")
        let planted = try replay("summary", traces, "--baseline", fromSummary, "--assert")
        XCTAssertEqual(planted.status, 1)
        XCTAssertTrue(planted.stdout.contains("[missed-background-save]") && planted.stdout.contains("1 finding in 1 group"), planted.stdout)
    }

    func testABaselineFileThatIsNotOneIsRefusedByName() throws {
        let temporary = TemporaryFolder()
        let traces = try folder(["lost-update-across-runs"], in: temporary)
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            (#"{"format":"lifecycle-baseline","version":2,"findings":[]}"#, "\"version\" must be 1"),
            (#"{"format":"sarif","version":1,"findings":[]}"#, "\"format\" must be"),
            (#"{"format":"lifecycle-baseline","version":1,"findings":[{"fingerprint":"XYZ"}]}"#, "findings[0].fingerprint"),
        ]
        for (content, expected) in cases {
            let file = temporary.write("bad.json", content)
            let result = try replay(traces, "--baseline", file, "--assert")
            XCTAssertEqual(result.status, 2, content)
            XCTAssertTrue(result.stderr.contains("bad.json") && result.stderr.contains(expected), result.stderr)
        }
        let missing = try replay(traces, "--baseline", temporary.file("missing.json"))
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("missing.json"), missing.stderr)
    }

    /// The identity is the rule and the subject: the same bug in another trace, or once more in the
    /// same trace, is the same entry (SARIF's `:N` occurrence is left out).
    func testTheIdentityIsTheFingerprintWithoutItsOccurrence() throws {
        let report = try Replayer.replay("\(rules)/lost-update-across-runs.jsonl")
        let finding = try XCTUnwrap(report.findings.first)
        var fingerprints = FindingFingerprints()
        XCTAssertEqual(fingerprints.next(finding), FindingBaseline.fingerprint(finding) + ":1")
        let twice = FindingBaseline(reports: [report, ReplayReport(trace: "other.jsonl", events: 1, runs: 1, findings: report.findings)])
        XCTAssertEqual(twice.entries.count, report.findings.count)
        XCTAssertEqual(twice.entries.first?.trace, report.trace, "the example is the first trace")
        XCTAssertEqual(try FindingBaseline.load("b.json", text: twice.json()), twice)
    }
}
