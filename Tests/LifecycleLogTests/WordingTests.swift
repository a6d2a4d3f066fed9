import Foundation
import XCTest
@testable import LifecycleLog

/// What a new user reads (issue 30: 6, 9, 12): messages worded for what they say, counts in the
/// right number, usage and help laid out to be read.
final class WordingTests: XCTestCase {
    private let editor = "\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl"

    // MARK: 6. kill-exposure of one event

    func testAOneEventKillExposureStretchIsWordedAsOne() throws {
        let findings = try replayFindings(String(contentsOfFile: editor, encoding: .utf8), explore: true)
        let one = try XCTUnwrap(findings.first { $0.rule == .killExposure })
        XCTAssertEqual(one.seq, 8)
        XCTAssertEqual(one.related, [])
        XCTAssertTrue(one.message.hasPrefix("For one event, at seq 8, the app was inactive or in the background"), one.message)
        XCTAssertFalse(one.message.contains("to seq 8"), one.message)
        // A longer stretch still names its first and last seqs.
        let longer = try replayFindings(String(contentsOfFile: "\(repositoryRoot)/traces/explore/kill-exposure.jsonl", encoding: .utf8), explore: true)
            .filter { $0.rule == .killExposure }
        XCTAssertEqual(longer.map(\.seq), [5, 10])
        XCTAssertTrue(longer[0].message.hasPrefix("From seq 5 to seq 6 the app"), longer[0].message)
        XCTAssertTrue(longer[1].message.hasPrefix("For one event, at seq 10, the app"), longer[1].message)
    }

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
}
