import Foundation
import XCTest
@testable import LifecycleLog

/// What the fixtures must hold together (each fixture against its expected report is
/// `FixtureSuite`, one Swift Testing case per fixture).
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

    /// Trace files written by this version are kept in traces/stored/ and must
    /// export identically in every later version: the stored layout is frozen.
    func testStoredTracesExportExactlyAsWhenTheyWereWritten() throws {
        let root = "\(repositoryRoot)/traces/stored"
        let stored = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".lmdb") }.sorted()
        XCTAssertGreaterThanOrEqual(stored.count, 3)
        for name in stored {
            var exported = ""
            try TraceInterchange.exportJSONLines(try Trace(path: "\(root)/\(name)")) { exported += $0 }
            let golden = try String(contentsOfFile: "\(root)/\(name.dropLast(".lmdb".count)).export.jsonl", encoding: .utf8)
            XCTAssertEqual(exported, golden, "\(name) no longer exports as it did")
        }
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: root).contains { $0.hasSuffix("-lock") })
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
