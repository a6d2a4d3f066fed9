import Foundation
import XCTest
@testable import LifecycleLog

/// `--state`, `stats` and `dump` of a trace of several processes (trace format 2), and their `--process` filter.
final class ProcessViewTests: XCTestCase {
    private let clean = "\(repositoryRoot)/traces/rules/app-widget-share-extension-clean.jsonl"

    private func object(_ json: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
    }

    // MARK: --state

    func testStateShowsEveryProcessAtTheSeqEachNamed() throws {
        // Seq 12 is the share extension's phase; the app's window is open and active meanwhile.
        let text = try replay(clean, "--state", "--at", "12")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("state of the app (main process) after seq 12: run 1 (iOS), app phase active"), text.stdout)
        XCTAssertTrue(text.stdout.contains("state of process \"com.example.notes.widget\" after seq 12: run 1 (iOS) has ended"), text.stdout)
        XCTAssertTrue(text.stdout.contains("state of process \"com.example.notes.share\" after seq 12: run 1 (iOS), app phase active"), text.stdout)
        XCTAssertTrue(text.stdout.contains("w1      main          active  2"), text.stdout)
        XCTAssertTrue(text.stdout.contains("w1      compose         active  10"), text.stdout)

        let json = try object(try replay(clean, "--state", "--at", "12", "--format", "json").stdout)
        XCTAssertEqual(json["process"] as? String, "", "the top level is the main app's state")
        XCTAssertEqual(json["running"] as? Bool, true)
        XCTAssertEqual((json["windows"] as? [[String: Any]])?.map { $0["scene"] as? String }, ["main"])
        let processes = try XCTUnwrap(json["processes"] as? [[String: Any]])
        XCTAssertEqual(processes.map { $0["process"] as? String }, ["", "com.example.notes.widget", "com.example.notes.share"])
        XCTAssertEqual(processes.map { $0["running"] as? Bool }, [true, false, true])
        XCTAssertEqual((processes[2]["windows"] as? [[String: Any]])?.map { $0["scene"] as? String }, ["compose"])
    }

    func testStateProcessShowsOneProcessAndAnUnknownOneIsAnError() throws {
        let share = try replay(clean, "--state", "--at", "12", "--process", "com.example.notes.share", "--format", "json")
        XCTAssertEqual(share.status, 0, share.stderr)
        let json = try object(share.stdout)
        XCTAssertEqual(json["process"] as? String, "com.example.notes.share")
        XCTAssertNil(json["processes"])
        let app = try replay(clean, "--state", "--process", "")
        XCTAssertTrue(app.stdout.hasPrefix("state after seq 22: run 1 (iOS) has ended"), app.stdout)
        let early = try replay(clean, "--state", "--at", "3", "--process", "com.example.notes.share")
        XCTAssertEqual(early.status, 2)
        XCTAssertTrue(early.stderr.contains("no event of process \"com.example.notes.share\" up to seq 3; the processes with events: \"\" (the main app)"), early.stderr)
        XCTAssertEqual(try replay(clean, "--process", "x").status, 2, "--process goes with --state")
    }

    func testAOneProcessTracesStateIsUnnamedAndItsJSONSaysTheMainApp() throws {
        let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"
        let text = try replay(example, "--state", "--at", "8").stdout
        XCTAssertTrue(text.hasPrefix("state after seq 8: "), text)
        let json = try object(try replay(example, "--state", "--at", "8", "--format", "json").stdout)
        XCTAssertEqual(json["process"] as? String, "")
        XCTAssertNil(json["processes"])
    }

    // MARK: stats

    func testStatsCountsEachProcessAndAChangeOfProcessOpensNoWindow() throws {
        let stats = try TraceStatistics.gather(clean)
        XCTAssertEqual(stats.windowsOpened, 2, "two opens, one in the app and one in the share extension")
        XCTAssertEqual(stats.mostWindowsOpen, 2)
        XCTAssertEqual(stats.processes.map(\.process), ["", "com.example.notes.widget", "com.example.notes.share"])
        XCTAssertEqual(stats.processes.map(\.events), [9, 5, 8])
        XCTAssertEqual(stats.processes.map(\.runs), [1, 1, 1])
        XCTAssertEqual(stats.processes.map(\.cleanRuns), [1, 0, 1])
        XCTAssertEqual(stats.processes.map(\.windowsOpened), [1, 0, 1])
        let text = try replay("stats", clean)
        XCTAssertTrue(text.stdout.contains("windows opened  2 (at most 2 at once)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("com.example.notes.widget  5       1     0      0"), text.stdout)
        let json = try object(try replay("stats", clean, "--format", "json").stdout)
        XCTAssertEqual(json["windowsOpened"] as? Int, 2)
        XCTAssertEqual((json["processes"] as? [[String: Any]])?.map { $0["process"] as? String }, ["", "com.example.notes.widget", "com.example.notes.share"])
    }

    func testStatsOfOneProcessCountOnlyItsEventsAndFindings() throws {
        let lost = "\(repositoryRoot)/traces/rules/group-widget-killed-unsaved.jsonl"
        let widget = try TraceStatistics.gather(lost, process: "com.example.notes.widget")
        XCTAssertEqual(widget.process, "com.example.notes.widget")
        XCTAssertEqual(widget.runs, 1)
        XCTAssertEqual(widget.cleanRuns, 0)
        XCTAssertEqual(widget.windowsOpened, 0)
        XCTAssertEqual(widget.findingsPerRule.map(\.rule), [.unsavedAtExit], "the widget was killed with an unsaved group key")
        let app = try TraceStatistics.gather(lost, process: "")
        XCTAssertEqual(app.findingsPerRule.count, 0)
        XCTAssertEqual(app.windowsOpened, 1)
        XCTAssertEqual(widget.events + app.events, try TraceStatistics.gather(lost).events)
        let json = try object(try replay("stats", lost, "--process", "com.example.notes.widget", "--format", "json").stdout)
        XCTAssertEqual(json["process"] as? String, "com.example.notes.widget")
        let unknown = try replay("stats", lost, "--process", "com.example.nope")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("the processes with events: \"\" (the main app), \"com.example.notes.widget\""), unknown.stderr)
    }

    // MARK: dump

    func testDumpWindowLabelsEachProcesssWindowAndProcessKeepsThemApart() throws {
        let all = try replay("dump", clean, "--window", "w1")
        XCTAssertEqual(all.status, 0, all.stderr)
        let lines = all.stdout.split(separator: "\n").dropFirst().map(String.init)
        XCTAssertEqual(lines.count, 10)
        XCTAssertEqual(lines.filter { $0.contains("w1 (com.example.notes.share)") }.count, 4, all.stdout)
        XCTAssertFalse(all.stdout.contains("process="), "the process goes with the window, not twice")
        let app = try replay("dump", clean, "--window", "w1", "--process", "")
        XCTAssertEqual(app.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }, ["2", "3", "17", "18", "19", "21"])
        let share = try replay("dump", clean, "--window", "w1", "--process", "com.example.notes.share")
        XCTAssertEqual(share.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }, ["10", "11", "13", "15"])
        // Without a window, the process stays a field.
        let widget = try replay("dump", clean, "--process", "com.example.notes.widget", "--kind", "kill")
        XCTAssertTrue(widget.stdout.contains("process=com.example.notes.widget reason=jetsam"), widget.stdout)
        let unknown = try replay("dump", clean, "--process", "nope")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stdout, "", "nothing half-written")
        XCTAssertTrue(unknown.stderr.contains("no event of process \"nope\" from seq 1"), unknown.stderr)
    }
}
