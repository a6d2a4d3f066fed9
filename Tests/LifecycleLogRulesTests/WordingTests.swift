import Foundation
import XCTest
@testable import LifecycleLogRules

/// What a new user reads (issue 30: 6), in the rules' own findings: a `kill-exposure` stretch of one
/// event is worded as one. (Messages, usage and help of `replay`: LifecycleLogTests' `WordingTests`.)
final class WordingTests: XCTestCase {
    private let editor = "\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl"

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
}
