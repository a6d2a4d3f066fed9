import XCTest
@testable import LifecycleLog

/// An app's own rule runs wherever replay runs (issue 20.6): the timeline, statistics, the
/// Perfetto export and the minimizer see its findings; `--rules` files name and grade it; a bad id
/// is one thrown error everywhere, never a trap. (The minimizer and `--rules` files, which need no
/// LMDB: LifecycleLogRulesTests' `AppRulesEverywhereTests`.)
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

    func testTheTimelineStatisticsAndExportShowAnAppRulesFindings() throws {
        let folder = TemporaryFolder()
        let path = folder.write("session.jsonl", Self.trace)
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
        let path = folder.write("session.jsonl", Self.trace)
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
            record { _ = try Replayer.replay(events: events(Self.trace), customRules: rules) }
            record { _ = try Replayer.replay(path, customRules: rules) }
            record { _ = try Timeline.build(path, customRules: rules) }
            record { _ = try TraceStatistics.gather(path, customRules: rules) }
            record { _ = try TraceMinimizer.minimize(events(Self.trace), rule: .lostUpdate, customRules: rules) }
            XCTAssertEqual(messages.count, 6)
            XCTAssertEqual(Set(messages).count, 1, "one message everywhere: \(messages)")
            XCTAssertTrue(messages[0].contains(expected), messages[0])
        }
    }
}
