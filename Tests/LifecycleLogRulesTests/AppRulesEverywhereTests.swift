import XCTest
@testable import LifecycleLogRules

/// An app's own rule runs wherever replay runs (issue 20.6), here where no LMDB is: the minimizer
/// keeps its findings, `--rules` files name and grade it by id. (The timeline, statistics, the
/// Perfetto export and a bad id everywhere: LifecycleLogTests' `AppRulesEverywhereTests`.)
final class AppRulesEverywhereTests: XCTestCase {
    // The app rule and its trace, the same in both halves: LifecycleLogRulesTestSupport's `InspectorOpensOnce`.
    private let trace = InspectorOpensOnce.trace
    private let rule = InspectorOpensOnce.rule

    func testTheMinimizerKeepsAnAppRulesFinding() throws {
        let all = try events(trace)
        let result = try TraceMinimizer.minimize(all, rule: rule, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(result.finding.rule, rule)
        XCTAssertLessThan(result.events.count, all.count)
        XCTAssertThrowsError(try TraceMinimizer.minimize(all, rule: rule)) { error in
            XCTAssertTrue("\(error)".contains("neither in the catalogue nor among the app rules passed"), "\(error)")
        }
    }

    func testARulesFileNamesAndGradesAppRulesByID() throws {
        let off = try RuleConfiguration(json: #"{"rules":{"inspector-opens-once":"off"}}"#, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(try Replayer.replay(events: events(trace), configuration: off, customRules: [InspectorOpensOnce()]).findings.count, 0)
        let warning = try RuleConfiguration(json: #"{"rules":{"inspector-opens-once":"warning"}}"#, customRules: [InspectorOpensOnce()])
        let report = try Replayer.replay(events: events(trace), configuration: warning, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(report.findings.map(\.severity), [.warning])
        XCTAssertThrowsError(try RuleConfiguration(json: #"{"rules":{"inspector-opens-once":"off"}}"#)) { error in
            XCTAssertTrue("\(error)".contains(#"unknown rule "inspector-opens-once""#), "\(error)")
            XCTAssertTrue("\(error)".contains("ReplayCommand.main(customRules:)"), "\(error)")
        }
        XCTAssertThrowsError(try RuleConfiguration(json: #"{"rules":{"inspector-opens-twice":"off"}}"#, customRules: [InspectorOpensOnce()])) { error in
            XCTAssertTrue("\(error)".contains("known rules: missed-background-save"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("kill-exposure, inspector-opens-once"), "\(error)")
        }
    }
}
