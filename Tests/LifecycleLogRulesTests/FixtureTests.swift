import Foundation
import XCTest
@testable import LifecycleLogRules

/// What the fixtures must hold together (each fixture against its expected report is
/// LifecycleLogTests' `FixtureSuite`, one Swift Testing case per fixture; the frozen trace files of
/// traces/stored/ are LifecycleLogTests' `FixtureTests`).
final class FixtureTests: XCTestCase {
    func testEveryRuleHasANegativeFixtureThatDoesNotFireIt() throws {
        let root = "\(repositoryRoot)/traces"
        let all = try XCTUnwrap(FileManager.default.subpaths(atPath: root))
        for rule in Rule.allCases {
            let negative = try XCTUnwrap(all.first { $0.hasSuffix("/\(rule.rawValue)-negative.expected.json") },
                                         "no negative fixture for \(rule.rawValue): add traces/…/\(rule.rawValue)-negative.jsonl")
            let text = try String(contentsOfFile: "\(root)/\(negative)", encoding: .utf8)
            XCTAssertFalse(text.contains("\"rule\":\"\(rule.rawValue)\""), "\(negative) fires the rule it should not")
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
