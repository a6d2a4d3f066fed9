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
        XCTAssertTrue(passing.stdout.hasSuffix("3 findings in the baseline (\(file)) not shown\n"), passing.stdout)
        XCTAssertFalse(passing.stdout.contains("not found in this run"), passing.stdout)

        // One new bug fails the run, alone; a bug fixed since is absent.
        try FileManager.default.copyItem(atPath: "\(rules)/unsaved-dismiss.jsonl", toPath: "\(traces)/unsaved-dismiss.jsonl")
        try FileManager.default.removeItem(atPath: "\(traces)/missed-background-save-shared.jsonl")
        let failing = try replay(traces, "--baseline", file, "--assert")
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stdout.components(separatedBy: ": error: [").count - 1, 1, failing.stdout)
        XCTAssertTrue(failing.stdout.contains("[unsaved-dismiss]"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("1 baseline entry not found in this run (fixed, or not reached by these traces):\n  0c4986d7b2ab7a70 [missed-background-save]"), failing.stdout)
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
        XCTAssertTrue(summary.stdout.contains("3 groups (3 findings) in the baseline (\(fromSummary)) not shown"), summary.stdout)
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
            (#"{"format":"lifecycle-baseline","version":2,"findings":[]}"#, "\"version\" must be 1 (it is 2;"),
            (#"{"format":"sarif","version":1,"findings":[]}"#, "\"format\" must be \"lifecycle-baseline\" (it is \"sarif\")"),
            (#"{"format":"lifecycle-baseline","version":1,"findings":[{"fingerprint":"XYZ"}]}"#, "line 1: is not a baseline replay can read: findings[0].fingerprint must be 16 lower-case hex digits (it is \"XYZ\")"),
            // A syntax error names its line and column; an entry, its line.
            ("{\"format\":\"lifecycle-baseline\",\n\"version\":1,\n\"findings\":[,]}\n", "line 3, column 13: is not a baseline replay can read: not valid JSON"),
            ("{\"format\":\"lifecycle-baseline\",\"version\":1,\"findings\":[\n{\"fingerprint\":\"0123456789abcdef\"},\n{\"rule\":\"lost-update\"}\n]}\n",
             "line 3: is not a baseline replay can read: findings[1].fingerprint must be 16 lower-case hex digits (it is missing)"),
            ("{\"format\":\"lifecycle-baseline\",\"version\":1,\"findings\":[\n{\"fingerprint\":\"0123456789abcdef\"},\n 7,\n{\"fingerprint\":\"0123456789abcdef\"}\n]}\n",
             "line 3: is not a baseline replay can read: findings[1] must be an object"),
            ("{\"format\":\"lifecycle-baseline\",\"version\":1,\"findings\":[\n{\"fingerprint\":\"0123456789abcdef\"},\n{\"fingerprint\":\"0123456789abcdef\"}\n]}\n",
             "line 3: is not a baseline replay can read: findings[1].fingerprint 0123456789abcdef is listed twice (also findings[0])"),
            (#"{"format":"lifecycle-baseline","version":1,"findings":{}}"#, "\"findings\" must be a list (it is {})"),
            (#"[]"#, "not a JSON object"),
            ("\n", "the file is empty"),
        ]
        for (content, expected) in cases {
            let file = temporary.write("bad.json", content)
            let result = try replay(traces, "--baseline", file, "--assert")
            XCTAssertEqual(result.status, 2, content)
            XCTAssertTrue(result.stderr.hasPrefix("replay: error: \(file): ") && result.stderr.contains(expected), "\(content)\n\(result.stderr)")
            XCTAssertTrue(result.stderr.hasSuffix("; write one with replay TRACES --write-baseline FILE\n"), result.stderr)
            XCTAssertEqual(result.stdout, "", "nothing is reported from a baseline that cannot be read")
            // replay summary reads it the same way.
            let summary = try replay("summary", traces, "--baseline", file)
            XCTAssertEqual(summary.status, 2, content)
            XCTAssertTrue(summary.stderr.contains(expected), summary.stderr)
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

    // MARK: A folder of generated traces with planted bugs

    /// A session with one planted `lost-update` (key `plantedShared`), and, with `newBug`, one
    /// planted `unsaved-dismiss` (key `plantedDraft`); `withoutLostUpdate` leaves the second write out.
    private static func session(newBug: Bool = false, withoutLostUpdate: Bool = false) -> String {
        var lines = [
            #"{"format":"lifecycle-trace","version":2}"#,
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
            #"{"event":"open","t":10,"window":"w1","scene":"main"}"#,
            #"{"event":"open","t":20,"window":"w2","scene":"main"}"#,
            #"{"event":"phase","t":30,"phase":"inactive"}"#,
            #"{"event":"phase","t":40,"phase":"active"}"#,
            #"{"event":"write","t":50,"window":"w1","key":"plantedShared","scope":"shared"}"#,
        ]
        if !withoutLostUpdate { lines.append(#"{"event":"write","t":60,"window":"w2","key":"plantedShared","scope":"shared"}"#) }
        lines.append(#"{"event":"save","t":70}"#)
        if newBug {
            lines += [#"{"event":"write","t":80,"window":"w1","key":"plantedDraft","scope":"scene"}"#,
                      #"{"event":"dismiss","t":90,"window":"w1"}"#, #"{"event":"save","t":100}"#]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Three generated traces full of bugs (two trace files, one in a subfolder, one JSON Lines)
    /// and the planted session.
    private func generatedFolder(_ temporary: TemporaryFolder) throws -> String {
        let root = temporary.file("traces")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try TraceInterchange.generate(.init(events: 1500, seed: 3, bugRate: 60, formatVersion: 2), to: root + "/gen3.lmdb")
        try TraceInterchange.generate(.init(events: 1500, seed: 4, bugRate: 60, formatVersion: 2), to: root + "/sub/gen4.lmdb")
        try TraceInterchange.generate(.init(events: 800, seed: 5, bugRate: 60, formatVersion: 1), to: temporary.file("gen5.lmdb"))
        let exported = try replay("export", temporary.file("gen5.lmdb"), "-o", root + "/gen5.jsonl")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        temporary.write("traces/session.jsonl", Self.session())
        return root
    }

    /// The result lines of a text report (`trace:line: error: [rule] …`), without the summary lines.
    private static func findingLines(_ stdout: String) -> [Substring] {
        stdout.split(separator: "\n").filter { $0.contains(": error: [") || $0.contains(": warning: [") }
    }

    func testABaselineOfGeneratedTracesPassesUntilAPlantedBugAndListsARemovedOne() throws {
        let temporary = TemporaryFolder()
        let traces = try generatedFolder(temporary)
        let before = try replay(traces, "--assert", "--strict")
        XCTAssertEqual(before.status, 1)
        let findings = Self.findingLines(before.stdout).count
        XCTAssertGreaterThan(findings, 20, "the generated traces have bugs to accept")

        let file = temporary.file("lifecycle-baseline.json")
        let written = try replay(traces, "--write-baseline", file, "--assert", "--strict")
        XCTAssertEqual(written.status, 1, "writing a baseline does not change the report or the assertion")
        XCTAssertEqual(written.stdout, before.stdout)
        let baseline = try FindingBaseline.load(file, text: String(contentsOfFile: file, encoding: .utf8))
        XCTAssertEqual(baseline.entries.map(\.fingerprint), baseline.entries.map(\.fingerprint).sorted())
        let lostUpdate = try XCTUnwrap(baseline.entries.first { $0.rule == "lost-update" && $0.subject == "scenes main; keys shared:plantedShared" })
        XCTAssertEqual(lostUpdate.trace, traces + "/session.jsonl")
        XCTAssertEqual(lostUpdate.seq, 7)
        XCTAssertEqual(lostUpdate.severity, "error")

        // The same folder against its baseline: nothing new, with warnings failing too.
        let passing = try replay(traces, "--baseline", file, "--assert", "--strict")
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)
        XCTAssertEqual(Self.findingLines(passing.stdout), [])
        XCTAssertTrue(passing.stdout.hasSuffix("total: 4 traces: 0 errors, 0 warnings\n\(findings) findings in the baseline (\(file)) not shown\n"), passing.stdout)

        // One new bug in one trace fails the run, and it is the only finding reported.
        temporary.write("traces/session.jsonl", Self.session(newBug: true))
        let failing = try replay(traces, "--baseline", file, "--assert", "--strict")
        XCTAssertEqual(failing.status, 1)
        let reported = Self.findingLines(failing.stdout)
        XCTAssertEqual(reported.count, 1, failing.stdout)
        XCTAssertTrue(reported.first?.hasPrefix("\(traces)/session.jsonl:11: error: [unsaved-dismiss] Window w1 was dismissed with unsaved \"plantedDraft\"") == true,
                      failing.stdout)
        XCTAssertTrue(failing.stdout.hasSuffix("\(findings) findings in the baseline (\(file)) not shown\n"), failing.stdout)
        XCTAssertEqual(failing.stderr, "replay: assertion failed: \(traces)/session.jsonl: 1 error or warning finding (the first at seq 10: [unsaved-dismiss])\n")
        // The other formats report it alone too.
        let json = try replay(traces, "--baseline", file, "--format", "json")
        XCTAssertEqual(json.stdout.components(separatedBy: "\"rule\":\"").count - 1, 1, json.stdout)
        let junit = try replay(traces, "--baseline", file, "--format", "junit")
        XCTAssertEqual(junit.stdout.components(separatedBy: "<failure").count - 1, 1, junit.stdout)
        XCTAssertFalse(json.stdout.contains("not shown") || junit.stdout.contains("not shown"), "only text has the note")

        // A bug removed since: its entry is absent, listed by fingerprint with its example.
        temporary.write("traces/session.jsonl", Self.session(newBug: true, withoutLostUpdate: true))
        let fixed = try replay(traces, "--baseline", file, "--assert", "--strict")
        XCTAssertEqual(fixed.status, 1, "the planted bug is still new")
        XCTAssertTrue(fixed.stdout.hasSuffix("""
            \(findings - 1) findings in the baseline (\(file)) not shown
            1 baseline entry not found in this run (fixed, or not reached by these traces):
              \(lostUpdate.fingerprint) [lost-update] scenes main; keys shared:plantedShared (was at seq 7 of \(traces)/session.jsonl)

            """), fixed.stdout)

        // SARIF: every result has its state; the absent entry is a result of its own.
        let sarif = try replay(traces, "--baseline", file, "--format", "sarif", "--assert")
        XCTAssertEqual(sarif.status, 1)
        let results = try Self.sarifResults(sarif.stdout)
        XCTAssertEqual(results.count, findings - 1 + 1 + 1)
        let states = Dictionary(grouping: results) { $0["baselineState"] as? String ?? "(none)" }
        XCTAssertEqual(Set(states.keys), ["new", "unchanged", "absent"], "every result has a baselineState (SARIF 2.1.0 §3.27.24)")
        XCTAssertEqual(states["unchanged"]?.count, findings - 1)
        let new = try XCTUnwrap(states["new"]?.first)
        XCTAssertEqual(states["new"]?.count, 1)
        XCTAssertEqual(new["ruleId"] as? String, "unsaved-dismiss")
        XCTAssertNotNil(new["locations"], "a new finding keeps its location")
        let absent = try XCTUnwrap(states["absent"]?.first)
        XCTAssertEqual(states["absent"]?.count, 1)
        XCTAssertEqual(absent["ruleId"] as? String, "lost-update")
        XCTAssertEqual(absent["level"] as? String, "error")
        XCTAssertNil(absent["locations"], "an absent result has no location in this run")
        XCTAssertEqual((absent["partialFingerprints"] as? [String: String])?[FindingFingerprints.key], lostUpdate.fingerprint + ":1")
        let message = try XCTUnwrap((absent["message"] as? [String: Any])?["text"] as? String)
        XCTAssertTrue(message.hasPrefix("in the baseline, not found in this run (it was at seq 7 of \(traces)/session.jsonl): Window w2 wrote \"plantedShared\""), message)
        // Each unchanged result is a finding of the run, located as without a baseline.
        let plain = try Self.sarifResults(try replay(traces, "--format", "sarif").stdout)
        XCTAssertEqual(plain.count, findings)
        XCTAssertFalse(plain.contains { $0["baselineState"] != nil }, "without --baseline, no result has a baselineState")
    }

    /// The results of a SARIF log's one run.
    private static func sarifResults(_ text: String) throws -> [[String: Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? String, "2.1.0")
        return try XCTUnwrap((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    }

    /// The same findings give the same bytes: whatever order the traces finish in (they replay in
    /// parallel), whichever way they are named on the command line, and from `replay summary` too.
    func testTheBaselineFileIsTheSameBytesFromRunToRun() throws {
        let temporary = TemporaryFolder()
        let traces = try generatedFolder(temporary)
        var files: [String] = []
        for i in 0..<3 {
            let file = temporary.file("b\(i).json")
            XCTAssertEqual(try replay(traces, "--write-baseline", file).status, 0)
            files.append(try String(contentsOfFile: file, encoding: .utf8))
        }
        XCTAssertEqual(Set(files).count, 1)
        let text = files[0]
        XCTAssertTrue(text.hasPrefix("{\"format\":\"lifecycle-baseline\",\"version\":1,\"findings\":[\n{\"fingerprint\":\""), text)
        XCTAssertTrue(text.hasSuffix("}\n]}\n"), text)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 2 + (try FindingBaseline.load("b", text: text)).entries.count, "one entry a line")
        // Named one by one in reverse order: the example of an identity is still the first trace by path.
        let reversed = temporary.file("reversed.json")
        let names = ["session.jsonl", "sub/gen4.lmdb", "gen5.jsonl", "gen3.lmdb"].map { "\(traces)/\($0)" }
        XCTAssertEqual(try runProgram(replayExecutable, names + ["--write-baseline", reversed]).status, 0)
        XCTAssertEqual(Set(try String(contentsOfFile: reversed, encoding: .utf8).split(separator: "\n").map { $0.prefix(19) }),
                       Set(lines.map { $0.prefix(19) }), "the same identities")
        // An empty run writes an empty list.
        let clean = temporary.file("clean")
        try FileManager.default.createDirectory(atPath: clean, withIntermediateDirectories: true)
        try TraceInterchange.generate(.init(events: 200, seed: 1, bugRate: 0, formatVersion: 2), to: clean + "/clean.lmdb")
        XCTAssertEqual(try replay(clean, "--write-baseline", temporary.file("empty.json")).status, 0)
        XCTAssertEqual(try String(contentsOfFile: temporary.file("empty.json"), encoding: .utf8), "{\"format\":\"lifecycle-baseline\",\"version\":1,\"findings\":[]}\n")
    }

    /// `--write-baseline` writes a file or nothing: never to standard output, never over a file of
    /// another kind, never without the findings of a trace that could not be read.
    func testWriteBaselineWritesAFileOrNothing() throws {
        let temporary = TemporaryFolder()
        let traces = try folder(["lost-update-across-runs", "unsaved-dismiss"], in: temporary)
        let dash = try replay(traces, "--write-baseline", "-")
        XCTAssertEqual(dash.status, 2)
        XCTAssertTrue(dash.stderr.contains("--write-baseline needs a file name"), dash.stderr)
        XCTAssertEqual(try replay("summary", traces, "--write-baseline", "-").status, 2)

        let notes = temporary.write("notes.txt", "my notes\n")
        let refused = try replay(traces, "--write-baseline", notes)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("\(notes): the file exists and holds something replay does not write") && refused.stderr.hasSuffix("choose another name\n"),
                      refused.stderr)
        XCTAssertFalse(refused.stderr.contains("--force"), "there is no --force for a baseline")
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        let jsonl = try replay(traces, "--write-baseline", temporary.file("b.jsonl"))
        XCTAssertEqual(jsonl.status, 2)
        XCTAssertTrue(jsonl.stderr.contains("give --write-baseline a name"), jsonl.stderr)

        // Nor over the --rules file or the --baseline file, however it is spelt.
        let rulesFile = temporary.write("rules.json", #"{"rules":{"phase-skip":"off"}}"#)
        let overRules = try replay(traces, "--rules", rulesFile, "--write-baseline", rulesFile)
        XCTAssertEqual(overRules.status, 2)
        XCTAssertTrue(overRules.stderr.contains("this is the command's own input"), overRules.stderr)
        XCTAssertEqual(try String(contentsOfFile: rulesFile, encoding: .utf8), #"{"rules":{"phase-skip":"off"}}"#)
        let accepted = temporary.file("accepted.json")
        XCTAssertEqual(try replay(traces, "--write-baseline", accepted).status, 0)
        let spelt = temporary.path + "/./accepted.json"
        XCTAssertEqual(try replay(traces, "--baseline", accepted, "--write-baseline", spelt).status, 2)
        XCTAssertEqual(try replay("summary", traces, "--baseline", accepted, "--write-baseline", spelt).status, 2)

        // A baseline of the folder is replaced by the next one; one inside the folder is not read as a trace.
        let inside = traces + "/lifecycle-baseline.json"
        XCTAssertEqual(try replay(traces, "--write-baseline", inside).status, 0)
        let again = try replay(traces, "--write-baseline", inside)
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stderr, "", "the baseline being written is not a trace of the folder")
        XCTAssertEqual(try replay(traces, "--baseline", inside, "--assert").status, 0)

        // A trace that cannot be read: no baseline, exit 2.
        try FileManager.default.removeItem(atPath: inside)
        temporary.write("traces/broken.jsonl", "{\"format\":\"lifecycle-trace\",\"version\":2}\n{\"event\":\"launch\"\n")
        let out = temporary.file("partial.json")
        let partial = try replay(traces, "--write-baseline", out)
        XCTAssertEqual(partial.status, 2)
        XCTAssertTrue(partial.stderr.hasPrefix("replay: error: \(out): the baseline was not written: 1 trace could not be read (below)\n"), partial.stderr)
        XCTAssertTrue(partial.stderr.contains("broken.jsonl"), partial.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(temporary.contents.filter { $0.hasPrefix("partial") }, [], "nothing half-written beside it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary.file("summary-partial.json")))
        XCTAssertEqual(try replay("summary", traces, "--write-baseline", temporary.file("summary-partial.json")).status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary.file("summary-partial.json")))
    }

    /// The API another command (`replay summary`) uses: the identities a run saw, in, out.
    func testCompareSortsTheIdentitiesSeenIntoNewUnchangedAndAbsent() throws {
        let text = """
            {"format":"lifecycle-baseline","version":1,"findings":[
            {"fingerprint":"000000000000000a","rule":"lost-update","severity":"error","subject":"keys app:a","trace":"t.jsonl","seq":3,"message":"m"},
            {"fingerprint":"000000000000000b"},
            {"fingerprint":"000000000000000c","rule":"unsaved-dismiss"}
            ]}
            """
        let baseline = try FindingBaseline.load("b.json", text: text)
        XCTAssertEqual(baseline.entries.first, .init(fingerprint: "000000000000000a", rule: "lost-update", severity: "error", subject: "keys app:a",
                                                     trace: "t.jsonl", seq: 3, message: "m"))
        let comparison = baseline.compare(seen: ["000000000000000f", "000000000000000b", "000000000000000e", "000000000000000b"])
        XCTAssertEqual(comparison.new, ["000000000000000e", "000000000000000f"])
        XCTAssertEqual(comparison.unchanged, ["000000000000000b"])
        XCTAssertEqual(comparison.absent.map(\.fingerprint), ["000000000000000a", "000000000000000c"])
        XCTAssertEqual(baseline.state(of: "000000000000000b"), .unchanged)
        XCTAssertEqual(baseline.state(of: "000000000000000e"), .new)
        XCTAssertEqual(FindingBaseline.State.allCases.map(\.rawValue), ["new", "unchanged", "absent"], "SARIF's baselineState values")
        XCTAssertEqual(baseline.compare(seen: [String]()).absent.count, 3)

        // The text note lists at most `limit` absent entries.
        let note = FindingBaseline.textNote(path: "b.json", hidden: "1 finding", absent: comparison.absent, limit: 1)
        XCTAssertEqual(note, """
            1 finding in the baseline (b.json) not shown
            2 baseline entries not found in this run (fixed, or not reached by these traces):
              000000000000000a [lost-update] keys app:a (was at seq 3 of t.jsonl)
              and 1 more (replay TRACES --baseline FILE --format sarif lists every one)

            """)
        XCTAssertEqual(FindingBaseline.textNote(path: "b.json", hidden: "0 findings", absent: []), "0 findings in the baseline (b.json) not shown\n")
    }

    /// An absent entry another tool wrote without a rule or message is still a valid SARIF result.
    func testAnAbsentEntryWithoutARuleIsAResultWithoutRuleId() throws {
        let baseline = try FindingBaseline.load("b.json", text: #"{"format":"lifecycle-baseline","version":1,"findings":[{"fingerprint":"00000000000000ff"}]}"#)
        let results = try Self.sarifResults(ReportRenderer.sarif([], baseline: baseline))
        XCTAssertEqual(results.count, 1)
        XCTAssertNil(results[0]["ruleId"])
        XCTAssertEqual(results[0]["baselineState"] as? String, "absent")
        XCTAssertEqual(results[0]["level"] as? String, "warning")
    }
}
