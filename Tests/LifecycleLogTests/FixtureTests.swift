import Foundation
import XCTest
@testable import LifecycleLog

/// Every fixture in traces/ replays through the library exactly as its
/// expected report says (the shell gate `scripts/replay-fixtures` checks the
/// same through the built command, for .jsonl and imported .lmdb alike).
final class FixtureTests: XCTestCase {
    func testEveryFixtureMatchesItsExpectedReport() throws {
        let root = "\(repositoryRoot)/traces"
        let fixtures = try XCTUnwrap(FileManager.default.subpaths(atPath: root)).filter { $0.hasSuffix(".jsonl") }.sorted()
        XCTAssertGreaterThan(fixtures.count, 25)
        for fixture in fixtures {
            var configuration = RuleConfiguration()
            configuration.explore = fixture.hasPrefix("explore/")
            let report = try Replayer.replay("\(root)/\(fixture)", configuration: configuration)
            let expectedPath = "\(root)/\(fixture.dropLast(".jsonl".count)).expected.json"
            let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
            if let diff = try ExpectedReport.difference(report, expectedText: expected, expectedPath: expectedPath) {
                XCTFail(diff)
            }
        }
    }

    func testEveryRuleHasAFixtureThatFiresIt() throws {
        let root = "\(repositoryRoot)/traces"
        var fired: Set<String> = []
        for fixture in try XCTUnwrap(FileManager.default.subpaths(atPath: root)).filter({ $0.hasSuffix(".expected.json") }) {
            let text = try String(contentsOfFile: "\(root)/\(fixture)", encoding: .utf8)
            for rule in Rule.allCases where text.contains("\"rule\":\"\(rule.rawValue)\"") { fired.insert(rule.rawValue) }
        }
        XCTAssertEqual(fired, Set(Rule.allCases.map(\.rawValue)))
    }
}
