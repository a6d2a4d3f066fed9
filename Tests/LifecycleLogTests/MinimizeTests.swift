import Foundation
import XCTest
@testable import LifecycleLog

/// `replay minimize`: shrinking a session to a fixture that keeps one finding.
final class MinimizeTests: XCTestCase {
    private let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"

    /// Checks what every minimal trace must be: launches before their runs' events, each
    /// window's events after its open in the same run, `t` never going back.
    private func assertWellFormed(_ events: [LifecycleEvent], file: StaticString = #filePath, line: UInt = #line) {
        // Per process (trace format 2): each has its own runs and windows.
        var open: [String: Set<String>] = [:]
        var running: Set<String> = []
        var lastT = -Double.infinity
        for (i, event) in events.enumerated() {
            XCTAssertGreaterThanOrEqual(event.t, lastT, "t goes back at seq \(i + 1)", file: file, line: line)
            lastT = event.t
            let process = event.process ?? ""
            switch event.kind {
            case .launch: running.insert(process); open[process] = []
            case .open(let w, _, _, _): open[process, default: []].insert(w)
            case .mark, .unknown: break  // allowed outside a run: the reducer only notes them
            default:
                XCTAssertTrue(running.contains(process), "seq \(i + 1) comes before any launch", file: file, line: line)
                if let w = event.window { XCTAssertTrue(open[process]?.contains(w) ?? false, "seq \(i + 1) names window \(w) before its open", file: file, line: line) }
            }
            switch event.kind {
            case .terminate, .kill: running.remove(process)
            default: break
            }
        }
    }

    func testAKnownLostUpdateShrinksToTheFiveEventsItNeeds() throws {
        let events = try TraceMinimizer.load(example)
        let result = try TraceMinimizer.minimize(events, rule: .lostUpdate, seq: 8)
        XCTAssertEqual(result.events.count, 5)
        XCTAssertEqual(result.originalSeqs, [1, 2, 5, 7, 8])
        XCTAssertEqual(result.finding.rule, .lostUpdate)
        XCTAssertEqual(result.finding.seq, 5)
        XCTAssertEqual(result.events.map(\.name), ["launch", "open", "open", "write", "write"])
        assertWellFormed(result.events)
    }

    func testAGeneratedSessionShrinksToAFewEventsThatReplayToTheSameFindingAndImport() throws {
        let folder = TemporaryFolder()
        let trace = folder.file("session.lmdb")
        try TraceInterchange.generate(.init(events: 30_000, seed: 7, bugRate: 10), to: trace)
        let report = try Replayer.replay(trace)
        // The second lost update, by seq: not simply the first one the search would meet.
        let lostUpdates = report.findings.filter { $0.rule == .lostUpdate }
        guard lostUpdates.count > 1 else { return XCTFail("the generated trace has \(lostUpdates.count) lost updates; pick another seed") }
        let target = lostUpdates[1]
        let fixture = folder.file("lost-update.jsonl")
        let run = try replay("minimize", trace, "--rule", "lost-update", "--seq", String(target.seq), "-o", fixture)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("30000 → "), run.stderr)
        let expected = folder.file("lost-update.expected.json")
        XCTAssertEqual(folder.contents, ["lost-update.expected.json", "lost-update.jsonl", "session.lmdb"])
        // Small, well formed, and the same finding at the seq that the original event now has.
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        let events = try LifecycleLogTests.events(text)
        XCTAssertLessThan(events.count, 30)
        assertWellFormed(events)
        let findings = try replayFindings(text)
        let kept = try XCTUnwrap(findings.first { $0.rule == .lostUpdate })
        let comment = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("# Expected:") })
        XCTAssertTrue(comment.contains("at seq \(kept.seq), seq \(target.seq) of the original"), String(comment))
        // The original event is the one kept: same kind and fields.
        let original = try TraceMinimizer.load(trace)[Int(target.seq) - 1]
        XCTAssertEqual(events[Int(kept.seq) - 1], original)
        // The expected report beside it is what --expect compares with, and replay import takes the fixture.
        XCTAssertEqual(try replay(fixture, "--expect", expected).status, 0)
        let written = try String(contentsOfFile: expected, encoding: .utf8)
        XCTAssertEqual(try replay(fixture, "--expect", expected, "--update-expected").status, 0)
        XCTAssertEqual(try String(contentsOfFile: expected, encoding: .utf8), written, "the same bytes as --update-expected writes")
        XCTAssertEqual(try replay("import", fixture, "-o", folder.file("imported.lmdb")).status, 0)
        XCTAssertEqual(try replay(folder.file("imported.lmdb"), "--expect", expected).status, 0)
    }

    func testEveryFindingOfEveryFixtureMinimizesToAWellFormedTraceThatStillGivesIt() throws {
        let root = "\(repositoryRoot)/traces"
        let fixtures = try XCTUnwrap(FileManager.default.subpaths(atPath: root)).filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".export.jsonl") }.sorted()
        var checked = 0
        for fixture in fixtures {
            var configuration = RuleConfiguration()
            configuration.explore = fixture.hasPrefix("explore/")
            let events = try TraceMinimizer.load("\(root)/\(fixture)")
            let report = try Replayer.replay("\(root)/\(fixture)", configuration: configuration)
            for finding in report.findings {
                let result = try TraceMinimizer.minimize(events, rule: finding.rule, seq: finding.seq, configuration: configuration)
                XCTAssertLessThanOrEqual(result.events.count, events.count, fixture)
                XCTAssertEqual(result.originalSeqs[Int(result.finding.seq) - 1], finding.seq, "\(fixture) \(finding.rule)")
                XCTAssertEqual(result.events[Int(result.finding.seq) - 1], events[Int(finding.seq) - 1])
                XCTAssertEqual(result.originalSeqs, result.originalSeqs.sorted())
                // Replaying the fixture text gives the same finding where the result says.
                let text = result.jsonLines(source: fixture)
                let again = try replayFindings(text, explore: configuration.explore || finding.rule == .killExposure)
                XCTAssertTrue(again.contains { $0.rule == finding.rule && $0.seq == result.finding.seq }, "\(fixture) \(finding.rule)")
                if finding.rule != .eventBeforeLaunch && finding.rule != .unknownWindow && !report.findings.contains(where: { $0.rule == .eventBeforeLaunch || $0.rule == .unknownWindow }) {
                    assertWellFormed(result.events)
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    func testWithoutASeqAnyFindingOfTheRuleIsKept() throws {
        let events = try TraceMinimizer.load("\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl")
        let result = try TraceMinimizer.minimize(events, rule: .unsavedAtExit)
        // The finding stays at the event where the original has it (the terminate, seq 18), not at
        // the willTerminate before it, where a shorter candidate would move it (issue 22).
        XCTAssertEqual(result.events.map(\.name), ["launch", "write", "terminate"])
        XCTAssertEqual(result.originalSeqs.last, 18)
        XCTAssertEqual(result.findings.map(\.rule), [.unsavedAtExit])
        // The expected report names the fixture by its file name.
        XCTAssertTrue(result.expectedReport(fixture: "/x/y/f.jsonl").hasPrefix(#"{"trace":"f.jsonl","events":3,"runs":1,"#))
    }

    /// Issue 30: 8. A widget that launched while the app's finding took shape is not needed for
    /// it: it goes as a whole, launch and all (its launch started no run of the app).
    func testAnotherProcessTheFindingDoesNotNeedGoesLaunchAndAll() throws {
        let trace = """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"write","t":20,"window":"w1","key":"draft","scope":"scene"}
            {"event":"launch","t":30,"process":"com.example.notes.widget","platform":"iOS","scenes":[],"reason":"background"}
            {"event":"terminate","t":40}
            """
        for seq: UInt64? in [nil, 5] {
            let result = try TraceMinimizer.minimize(try events(trace), rule: .unsavedAtExit, seq: seq)
            XCTAssertEqual(result.originalSeqs, [1, 2, 3, 5])
            XCTAssertEqual(result.runs, 1)
            XCTAssertFalse(result.events.contains { $0.process != nil })
        }
        // Its other events go with it; a process the finding needs stays (the widget's write is
        // the change that the app's write overwrites).
        let withMark = trace.replacingOccurrences(of: #"{"event":"terminate""#,
            with: #"{"event":"mark","t":35,"process":"com.example.notes.widget","label":"reloaded"}"# + "\n" + #"{"event":"terminate""#)
        XCTAssertEqual(try TraceMinimizer.minimize(try events(withMark), rule: .unsavedAtExit).originalSeqs, [1, 2, 3, 6])
        let needed = try TraceMinimizer.minimize(try TraceMinimizer.load("\(repositoryRoot)/traces/rules/group-widget-lost-update.jsonl"), rule: .lostUpdate)
        XCTAssertTrue(needed.events.contains { $0.process == "com.example.notes.widget" })
        XCTAssertEqual(needed.runs, 2)
        // What the command says.
        let folder = TemporaryFolder()
        let source = folder.write("stray.jsonl", trace + "\n")
        let run = try replay("minimize", source, "--rule", "unsaved-at-exit", "-o", folder.file("f.jsonl"))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("5 → 4 events (1 run)"), run.stderr)
    }

    func testAWhatIfRuleIsKeptWithExploreAndSaysSo() throws {
        let events = try TraceMinimizer.load("\(repositoryRoot)/traces/explore/kill-exposure.jsonl")
        let result = try TraceMinimizer.minimize(events, rule: .killExposure)
        XCTAssertEqual(result.finding.rule, .killExposure)
        XCTAssertLessThan(result.events.count, events.count)
        XCTAssertTrue(result.jsonLines(source: "k.jsonl", explore: true).contains("replay with --explore"))
    }

    func testBadRequestsExitTwoAndWriteNothing() throws {
        let folder = TemporaryFolder()
        let fixture = folder.file("f.jsonl")
        let unknownRule = try replay("minimize", example, "--rule", "lost-updates", "-o", fixture)
        XCTAssertEqual(unknownRule.status, 2)
        XCTAssertTrue(unknownRule.stderr.contains("unknown rule \"lost-updates\""), unknownRule.stderr)
        let notFiring = try replay("minimize", example, "--rule", "duplicate-window", "-o", fixture)
        XCTAssertEqual(notFiring.status, 2)
        XCTAssertTrue(notFiring.stderr.contains("duplicate-window does not fire in this trace"), notFiring.stderr)
        let wrongSeq = try replay("minimize", example, "--rule", "lost-update", "--seq", "9", "-o", fixture)
        XCTAssertEqual(wrongSeq.status, 2)
        XCTAssertTrue(wrongSeq.stderr.contains("it fires at other seqs"), wrongSeq.stderr)
        XCTAssertEqual(try replay("minimize", example, "--rule", "lost-update", "--seq", "99", "-o", fixture).status, 2)
        XCTAssertEqual(try replay("minimize", example, "--rule", "lost-update", "-o", folder.file("f.json")).status, 2)
        XCTAssertEqual(try replay("minimize", folder.file("missing.lmdb"), "--rule", "lost-update", "-o", fixture).status, 2)
        XCTAssertEqual(folder.contents, [])
    }
}
