import XCTest
@testable import LifecycleLog

/// An app's own rule runs wherever replay runs (issue 20.6): the timeline, statistics, the
/// Perfetto export and the minimizer see its findings; `--rules` files name and grade it; a bad id
/// is one thrown error everywhere, never a trap. (The minimizer and `--rules` files, which need no
/// LMDB: LifecycleLogRulesTests' `AppRulesEverywhereTests`.)
final class AppRulesEverywhereTests: XCTestCase {
    // The app rule and its trace, the same in both halves: LifecycleLogRulesTestSupport's `InspectorOpensOnce`.
    private let trace = InspectorOpensOnce.trace
    private let rule = InspectorOpensOnce.rule

    func testTheTimelineStatisticsAndExportShowAnAppRulesFindings() throws {
        let folder = TemporaryFolder()
        let path = folder.write("session.jsonl", trace)
        let timeline = try Timeline.build(path, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(timeline.findings.map(\.finding.rule), [rule])
        XCTAssertEqual(try Timeline.build(path).findings.count, 0, "without the app rule the catalogue finds nothing here")
        let stats = try TraceStatistics.gather(path, customRules: [InspectorOpensOnce()])
        XCTAssertTrue(stats.text().contains("inspector-opens-once"), stats.text())
        var perfetto = ""
        try TraceEventExport.write(path, customRules: [InspectorOpensOnce()]) { perfetto += $0 }
        XCTAssertTrue(perfetto.contains("inspector-opens-once"))
    }

    func testABadAppRuleIDIsOneThrownErrorEverywhere() throws {
        let folder = TemporaryFolder()
        let path = folder.write("session.jsonl", trace)
        let cases: [([any LifecycleRule], String)] = [
            ([InspectorOpensOnce(id: "")], "must be ASCII letters"),
            ([InspectorOpensOnce(id: "inspector opens")], "must be ASCII letters"),
            ([InspectorOpensOnce(id: "lost-update")], "is a rule of the catalogue"),
            ([InspectorOpensOnce(), InspectorOpensOnce()], "two app rules have the id"),
        ]
        for (rules, expected) in cases {
            var messages: [String] = []
            func record(_ body: () throws -> Void) {
                do { try body(); XCTFail("no error for \(rules.map(\.id))") } catch { messages.append("\(error)") }
            }
            record { _ = try LifecycleReducer(customRules: rules) }
            record { _ = try Replayer.replay(events: events(trace), customRules: rules) }
            record { _ = try Replayer.replay(path, customRules: rules) }
            record { _ = try Timeline.build(path, customRules: rules) }
            record { _ = try TraceStatistics.gather(path, customRules: rules) }
            record { _ = try TraceMinimizer.minimize(events(trace), rule: .lostUpdate, customRules: rules) }
            XCTAssertEqual(messages.count, 6)
            XCTAssertEqual(Set(messages).count, 1, "one message everywhere: \(messages)")
            XCTAssertTrue(messages[0].contains(expected), messages[0])
        }
    }
}
