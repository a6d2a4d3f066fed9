import XCTest
@testable import LifecycleLog

/// Every finding's output is bounded (issue 28, item 4): the rules' side is LifecycleLogRulesTests'
/// `BoundedFindingTests`; here, what the built `replay` prints of such findings.
final class BoundedFindingTests: XCTestCase {
    private let open1 = #"{"event":"open","t":1,"window":"w1","scene":"main"}"#

    /// One window with `activities` activities started (`a1` …, seqs 4 on), then `trips` round
    /// trips to the background and back.
    private func activityTrace(activities: Int, trips: Int) -> String {
        var lines = [launch(), open1, #"{"event":"phase","t":2,"window":"w1","phase":"active"}"#]
        var t = 3
        for i in 1...activities {
            lines.append(#"{"event":"activity","t":\#(t),"window":"w1","name":"a\#(i)","state":"start"}"#)
            t += 1
        }
        for _ in 0..<trips {
            for phase in ["inactive", "background", "inactive", "active"] {
                lines.append(#"{"event":"phase","t":\#(t),"window":"w1","phase":"\#(phase)"}"#)
                t += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// How many times `text` holds `part`.
    private func count(_ part: String, in text: String) -> Int {
        text.components(separatedBy: part).count - 1
    }

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
