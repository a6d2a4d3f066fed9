import XCTest
@testable import LifecycleLogRules

/// An app's own rule runs wherever replay runs (issue 20.6), here where no LMDB is: the minimizer
/// keeps its findings, `--rules` files name and grade it by id. (The timeline, statistics, the
/// Perfetto export and a bad id everywhere: LifecycleLogTests' `AppRulesEverywhereTests`.)
final class AppRulesEverywhereTests: XCTestCase {
    /// Fires when a second `inspector` window opens while one is open.
    struct InspectorOpensOnce: LifecycleRule {
        var id = "inspector-opens-once"
        mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
            guard case .windowOpened(_, scene: "inspector", _) = transition,
                  context.state.windows.count(where: { $0.scene == "inspector" }) > 1 else { return }
            context.report("A second inspector window opened.")
        }
    }

    static let trace = """
        {"t":0,"event":"launch","platform":"macOS","scenes":[{"id":"notes","kind":"WindowGroup"},{"id":"inspector","kind":"WindowGroup"}]}
        {"t":10,"event":"open","window":"n1","scene":"notes"}
        {"t":20,"event":"phase","window":"n1","phase":"active"}
        {"t":30,"event":"open","window":"i1","scene":"inspector"}
        {"t":40,"event":"open","window":"i2","scene":"inspector"}
        {"t":50,"event":"dismiss","window":"i2"}
        {"t":60,"event":"dismiss","window":"i1"}
        {"t":70,"event":"terminate"}

        """
    let rule = Rule.custom("inspector-opens-once")

    func testTheMinimizerKeepsAnAppRulesFinding() throws {
        let all = try events(Self.trace)
        let result = try TraceMinimizer.minimize(all, rule: rule, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(result.finding.rule, rule)
        XCTAssertLessThan(result.events.count, all.count)
        XCTAssertThrowsError(try TraceMinimizer.minimize(all, rule: rule)) { error in
            XCTAssertTrue("\(error)".contains("neither in the catalogue nor among the app rules passed"), "\(error)")
        }
    }

    func testARulesFileNamesAndGradesAppRulesByID() throws {
        let off = try RuleConfiguration(json: #"{"rules":{"inspector-opens-once":"off"}}"#, customRules: [InspectorOpensOnce()])
        XCTAssertEqual(try Replayer.replay(events: events(Self.trace), configuration: off, customRules: [InspectorOpensOnce()]).findings.count, 0)
        let warning = try RuleConfiguration(json: #"{"rules":{"inspector-opens-once":"warning"}}"#, customRules: [InspectorOpensOnce()])
        let report = try Replayer.replay(events: events(Self.trace), configuration: warning, customRules: [InspectorOpensOnce()])
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
