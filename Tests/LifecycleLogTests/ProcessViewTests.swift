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
}
