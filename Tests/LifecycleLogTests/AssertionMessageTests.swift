import Foundation
import XCTest
@testable import LifecycleLog

/// Issue 30, item 2: `replay DIR --expect DIR --assert` exited 1 with every line saying "matches" and
/// nothing saying that the assertion failed, or which findings failed it.
final class AssertionMessageTests: XCTestCase {
    func testAnAssertionThatFailsBesideMatchingExpectedReportsSaysWhichTraceAndFindingFailedIt() throws {
        let folder = TemporaryFolder()
        let traces = folder.file("traces")
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        for name in ["document-two-windows-lost-update", "activity-in-background-negative"] {
            for suffix in [".jsonl", ".expected.json"] {
                try FileManager.default.copyItem(atPath: "\(repositoryRoot)/traces/rules/\(name)\(suffix)", toPath: "\(traces)/\(name)\(suffix)")
            }
        }
        let result = try replay(traces, "--expect", traces, "--assert")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("match"), result.stdout)
        XCTAssertTrue(result.stderr.contains("replay: assertion failed: \(traces)/document-two-windows-lost-update.jsonl: 1 error finding (the first at seq"), result.stderr)
        XCTAssertTrue(result.stderr.contains("[lost-update])"), result.stderr)
    }

    /// One trace is replayed streaming (its findings are printed, not kept): the assertion's line
    /// counted the kept findings, and said "0 error findings" for a trace with errors.
    func testTheAssertionOfOneTraceCountsItsFindings() throws {
        let trace = "\(repositoryRoot)/traces/rules/unsaved-dismiss.jsonl"
        let result = try replay(trace, "--assert")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("replay: assertion failed: \(trace): 1 error finding"), result.stderr)
        XCTAssertFalse(result.stderr.contains(": 0 error"), result.stderr)
    }
}
