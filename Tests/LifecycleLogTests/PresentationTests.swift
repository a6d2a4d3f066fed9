import Foundation
import XCTest
@testable import LifecycleLog

/// The timeline report, the terminal, stats and dump.
final class PresentationTests: XCTestCase {
    private let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"

    func testTheTimelinePlacesEachFindingAtItsEventsTimeAndLane() throws {
        var configuration = RuleConfiguration()
        configuration.explore = true
        let timeline = try Timeline.build(example, configuration: configuration)
        XCTAssertEqual(timeline.rows, 2)
        XCTAssertEqual(timeline.buckets, 0, "a short trace is drawn exactly")
        let lostUpdate = try XCTUnwrap(timeline.findings.first { $0.finding.rule == .lostUpdate })
        XCTAssertEqual(lostUpdate.t, 990)
        let w2Row = try XCTUnwrap(timeline.segments.first { timeline.labels[$0.label].hasPrefix("w2") }).row
        XCTAssertEqual(lostUpdate.row, w2Row)
        // w1 is active from its phase at t=7 until it goes inactive at t=2000.
        let w1Active = timeline.segments.filter { timeline.labels[$0.label].hasPrefix("w1") && $0.phase == .active }
        XCTAssertEqual(w1Active.map(\.start), [7])
        XCTAssertEqual(w1Active.map(\.end), [2000])
        // The app lane: inactive at launch, active with w1, inactive from t=2000 until the run's last event;
        // run 1 ends without terminate where its last event was.
        let app = timeline.segments.filter { $0.row == -1 }
        XCTAssertEqual(app.map(\.phase), [.inactive, .active, .inactive])
        XCTAssertEqual(app.map(\.end), [7, 2000, 2101])
        XCTAssertEqual(timeline.marks.filter { $0.kind == .uncleanEnd }.map(\.t), [2101])
        XCTAssertEqual(timeline.marks.filter { $0.kind == .launch }.count, 2)
        XCTAssertEqual(timeline.marks.filter { $0.kind == .write }.map(\.t), [950, 990])
    }

    func testTheHTMLReportIsSelfContained() throws {
        let html = try Timeline.build(example).html()
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        for external in ["<script src", "<link", "@import", "url(http", "src=\"http", "href=\"http", "fetch(", "XMLHttpRequest"] {
            XCTAssertFalse(html.contains(external), "the page must not load anything: found \(external)")
        }
        XCTAssertTrue(html.contains("\"rule\"") == false && html.contains("lost-update"))
        XCTAssertEqual(html, try Timeline.build(example).html(), "the same trace must give the same page")
    }

    func testAScriptTagInTheTraceCannotBreakOutOfTheDataBlock() throws {
        let folder = TemporaryFolder()
        let trace = folder.write("x.jsonl", launch() + "\n" + #"{"event":"open","t":1,"window":"</script><script>alert(1)</script>","scene":"ghost"}"#)
        let html = try Timeline.build(trace).html()
        XCTAssertFalse(html.contains("</script><script>alert(1)"))
    }

    func testALongTracesReportStaysSmall() throws {
        let folder = TemporaryFolder()
        let path = folder.file("long.lmdb")
        try TraceInterchange.generate(.init(events: 150_000, seed: 2), to: path)
        let timeline = try Timeline.build(path)
        XCTAssertEqual(timeline.buckets, Timeline.bucketCount)
        XCTAssertLessThanOrEqual(timeline.segments.count, (timeline.rows + 1) * Timeline.bucketCount)
        XCTAssertLessThanOrEqual(timeline.findings.filter { $0.finding.severity == .warning }.count, Timeline.maxDetailedFindings)
        XCTAssertEqual(timeline.findings.count + timeline.moreFindings, timeline.errors + timeline.warnings)
        XCTAssertLessThan(timeline.html().utf8.count, 4 << 20)
    }

    func testStatsCountEventsRunsWindowsAndFindings() throws {
        let stats = try TraceStatistics.gather(example)
        XCTAssertEqual(stats.events, 13)
        XCTAssertEqual(stats.runs, 2)
        XCTAssertEqual(stats.cleanRuns, 0)
        XCTAssertEqual(stats.windowsOpened, 2)
        XCTAssertEqual(stats.eventsPerKind.map(\.kind), ["launch", "open", "phase", "read", "write"])
        XCTAssertEqual(stats.eventsPerKind.map(\.count), [2, 2, 6, 1, 2])
        XCTAssertEqual(stats.findingsPerRule.map(\.rule), [.lostUpdate, .missedBackgroundSave])
        let json = try replay("stats", example, "--format", "json").stdout
        XCTAssertTrue(json.contains("\"eventsPerKind\":{\"launch\":2,\"open\":2,\"phase\":6,\"read\":1,\"write\":2}"), json)
    }

    func testDumpFiltersBySeqWindowAndKind() throws {
        let out = try replay("dump", example, "--from", "5", "--to", "9", "--window", "w2").stdout
        let lines = out.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)  // the header and seqs 5, 6, 8
        XCTAssertTrue(lines[1].hasPrefix("5       900           open      w2            scene=note value=42"), String(lines[1]))
        XCTAssertEqual(lines.dropFirst().map { $0.split(separator: " ")[0] }, ["5", "6", "8"])
        let writes = try replay("dump", example, "--kind", "write").stdout.split(separator: "\n").dropFirst()
        XCTAssertEqual(writes.count, 2)
        let folder = TemporaryFolder()
        let trace = folder.file("t.lmdb")
        try TraceInterchange.importJSONLines(from: example, to: trace)
        XCTAssertEqual(try replay("dump", trace, "--from", "5", "--to", "9", "--window", "w2").stdout, out.replacing(example, with: trace))
    }

    func testColourOnlyOnATerminalAndNeverWithNoColor() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("needs script(1) for a terminal") }
        let piped = try replay(example)
        XCTAssertFalse(piped.stdout.contains("\u{1B}["), "piped output must be plain")
        let command = "\(replayExecutable) \(example)"
        let onTerminal = try runProgram("/usr/bin/env", ["-u", "NO_COLOR", "TERM=xterm", "/usr/bin/script", "-qec", command, "/dev/null"])
        XCTAssertTrue(onTerminal.stdout.contains("\u{1B}[1;31merror\u{1B}[0m"), onTerminal.stdout)
        let noColor = try runProgram("/usr/bin/env", ["TERM=xterm", "NO_COLOR=1", "/usr/bin/script", "-qec", command, "/dev/null"])
        XCTAssertTrue(noColor.stdout.contains(": error: [lost-update]"), noColor.stdout)
        XCTAssertFalse(noColor.stdout.contains("\u{1B}[1;3") || noColor.stdout.contains("\u{1B}[36m"), "NO_COLOR must turn colour off")
    }

    func testAMistypedCommandIsSuggested() throws {
        let result = try replay("exprt", "trace.lmdb")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("Did you mean `replay export`?"), result.stderr)
    }
}
