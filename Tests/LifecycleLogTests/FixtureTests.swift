import Foundation
import XCTest
@testable import LifecycleLog

/// What the fixtures must hold together that needs LMDB: the frozen trace files of traces/stored/ (the
/// rest is LifecycleLogRulesTests' `FixtureTests`).
final class FixtureTests: XCTestCase {
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
}
