import XCTest
@testable import LifecycleLog

/// Every finding's output is bounded (issue 28, item 4): the rules' side is LifecycleLogRulesTests'
/// `BoundedFindingTests`; here, what the built `replay` prints of such findings.
final class BoundedFindingTests: XCTestCase {

    func testTheTextReportGrowsWithTheFindingsNotWithTheirActivities() throws {
        let folder = TemporaryFolder()
        let trace = activityTrace(activities: 5_000, trips: 200)
        let path = folder.write("activities.jsonl", trace)
        let result = try replay(path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(count("[activity-in-background]", in: result.stdout), 200)
        // Unbounded, each finding listed 5,000 names and 5,000 seqs: 14.6 MB for a 421 kB trace.
        XCTAssertLessThan(result.stdout.utf8.count, 3 * trace.utf8.count, "report of \(result.stdout.utf8.count) bytes")
        XCTAssertLessThan(result.stdout.utf8.count, 200 * 1_000)
        for format in ["json", "sarif"] {
            let other = try replay(path, "--format", format)
            XCTAssertLessThan(other.stdout.utf8.count, 3 * trace.utf8.count, "\(format): \(other.stdout.utf8.count) bytes")
        }
    }
}
