import XCTest
@testable import LifecycleLogRules
import LifecycleLogRecorder

/// `launch-crash-loop` (rules.md version 3, Readings 22 and 23).
final class LaunchCrashLoopTests: XCTestCase {
    private let header = #"{"format":"lifecycle-trace","version":2}"#
    private func trace(_ lines: String...) -> String { ([header] + lines).joined(separator: "\n") + "\n" }
    private func mac(_ t: Int, _ extra: String = "") -> String {
        #"{"event":"launch","t":\#(t),"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"}]\#(extra)}"#
    }
    private func restored(_ t: Int, _ window: String = "w1") -> String {
        #"{"event":"open","t":\#(t),"window":"\#(window)","scene":"main","restored":true}"#
    }
    private func kill(_ t: Int, _ reason: String, _ process: String? = nil) -> String {
        #"{"event":"kill","t":\#(t),"reason":"\#(reason)"\#(process.map { #","process":"\#($0)""# } ?? "")}"#
    }
    private func active(_ t: Int, _ window: String = "w1") -> String { #"{"event":"phase","t":\#(t),"window":"\#(window)","phase":"active"}"# }

    private func findings(_ jsonl: String, _ configuration: RuleConfiguration = RuleConfiguration()) throws -> [Finding] {
        var reducer = LifecycleReducer(configuration: configuration)
        for (i, event) in try events(jsonl).enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
        reducer.finish()
        return reducer.findings
    }

    func testTwoUnrecordedDeathsWhileRestoringWithinSecondsAreALoopAtTheSecondEnd() throws {
        let jsonl = trace(mac(0), restored(40), mac(1800), restored(1840), mac(3900))
        assertFindings(jsonl, [(.launchCrashLoop, 5)])
        let finding = try XCTUnwrap(try findings(jsonl).first)
        XCTAssertEqual(finding.related, [1, 3], "the first run's launch and end (the second launch), the second's launch")
        XCTAssertEqual(finding.severity, .error)
        XCTAssertTrue(finding.message.contains("restoring window w1 (scene main)"), finding.message)
        // What the trace knows of an unrecorded end, no more (issue 30).
        XCTAssertTrue(finding.message.contains("a crash, a watchdog kill and a force quit while it hung all look like this"), finding.message)
        XCTAssertFalse(finding.message.contains("died"), finding.message)
    }

    func testRecordedCrashesLoopOncePerLoopWithTheFirstKillRelated() throws {
        let jsonl = trace(mac(0), restored(40), kill(60, "crash"), mac(2000), restored(2040), kill(2060, "crash"),
                          mac(4000), kill(4100, "watchdog"), mac(6000), restored(6040), active(6050))
        assertFindings(jsonl, [(.uncleanExit, 3), (.uncleanExit, 6), (.launchCrashLoop, 6), (.uncleanExit, 8)])
        XCTAssertEqual(try findings(jsonl).first { $0.rule == .launchCrashLoop }?.related, [1, 3, 4])
    }

    func testALoopBrokenByAGoodRunStartsAgain() {
        let jsonl = trace(mac(0), mac(1000), mac(2000), restored(2010), active(2020), kill(2100, "user"),
                          mac(3000), mac(4000), mac(5000))
        // Runs 1 and 2 fail (reported at run 2's end, the launch at seq 3); run 3 became active
        // and broke the loop; runs 4 and 5 fail again: a new loop, at run 5's end (seq 9).
        assertFindings(jsonl, [(.launchCrashLoop, 3), (.launchCrashLoop, 9)])
        // Run 6 fails too, within a minute of run 5: the same loop, not reported again.
        assertFindings(trace(mac(0), mac(1000), mac(2000), restored(2010), active(2020), kill(2100, "user"),
                             mac(3000), mac(4000), mac(5000), mac(6000)),
                       [(.launchCrashLoop, 3), (.launchCrashLoop, 9)])
    }

    func testNearMissesGiveNothing() {
        // A single short run.
        assertFindings(trace(mac(0), restored(40), mac(1500), restored(1540), active(1550)), [])
        // Background and prewarmed launches reclaimed again and again, also of an extension.
        assertFindings(trace(mac(0, #","reason":"background""#), mac(500, #","reason":"background""#),
                             mac(900, #","reason":"prewarm""#), mac(1200, #","reason":"prewarm""#), mac(1300, #","reason":"background""#)), [])
        // A menu-bar app never becomes active on its own.
        assertFindings(trace(mac(0, #","activation":"accessory""#), mac(500, #","activation":"accessory""#),
                             mac(900, #","activation":"prohibited""#)), [])
        // The user quits or force quits at once and relaunches; Xcode's Stop; a test runner's kills; jetsam.
        assertFindings(trace(mac(0), #"{"event":"terminate","t":10}"#, mac(100), kill(110, "user"), mac(200),
                             #"{"event":"delegate","t":210,"callback":"willTerminate"}"#, mac(300, #","debugger":true"#),
                             mac(400, #","debugger":true"#), mac(500, #","harness":"xcuitest""#), kill(510, "harness"),
                             mac(600, #","harness":"xcuitest""#), kill(610, "harness"), mac(700), kill(710, "jetsam"), mac(800)), [])
        // An update between two failed runs explains the second end (Readings 4).
        assertFindings(trace(mac(0, #","build":"1""#), mac(500, #","build":"1""#), mac(900, #","build":"2""#)), [])
        // Ended in the background with nothing recorded: the system may have reclaimed it.
        assertFindings(trace(mac(0), #"{"event":"phase","t":10,"phase":"background"}"#, mac(500),
                             #"{"event":"phase","t":510,"phase":"background"}"#, mac(900)), [])
    }

    func testTheLimitIsBetweenTheTwoLaunchesAndIncludesExactlyTheLimit() throws {
        assertFindings(trace(mac(0), kill(10, "crash"), mac(60_000), kill(60_010, "crash")),
                       [(.uncleanExit, 2), (.uncleanExit, 4), (.launchCrashLoop, 4)])
        assertFindings(trace(mac(0), kill(10, "crash"), mac(60_001), kill(60_011, "crash")), [(.uncleanExit, 2), (.uncleanExit, 4)])
        // launch-crash-loop-ms in a --rules file moves it.
        let configuration = try RuleConfiguration(json: #"{"thresholds":{"launch-crash-loop-ms":1000}}"#)
        XCTAssertEqual(configuration[threshold: .launchCrashLoop], 1000)
        XCTAssertEqual(try findings(trace(mac(0), mac(1000), mac(2001), mac(3000)), configuration).map(\.seq), [3])
        XCTAssertEqual(try findings(trace(mac(0), mac(1001), mac(2000)), configuration).map(\.seq), [])
    }

    func testOtherProcessesInBetweenDoNotBreakALoopAndAreNotPartOfIt() {
        let widget = "com.example.notes.widget"
        assertFindings(trace(mac(0), #"{"event":"launch","t":10,"process":"\#(widget)","platform":"macOS","scenes":[]}"#,
                             mac(500), kill(520, "jetsam", widget), mac(900)),
                       [(.launchCrashLoop, 5)])
        // A loop of the widget (launched with UI by mistake) is its own.
        assertFindings(trace(#"{"event":"launch","t":0,"process":"\#(widget)","platform":"iOS","scenes":[]}"#,
                             mac(100), #"{"event":"open","t":110,"window":"w1","scene":"main"}"#, active(120),
                             #"{"event":"launch","t":200,"process":"\#(widget)","platform":"iOS","scenes":[]}"#,
                             kill(300, "crash", widget)),
                       [(.launchCrashLoop, 6), (.uncleanExit, 6)])
    }

    func testTheRuleIsInTheCatalogueAndItsThresholdIsChecked() {
        XCTAssertEqual(Rule(rawValue: "launch-crash-loop"), .launchCrashLoop)
        XCTAssertEqual(Rule.launchCrashLoop.defaultSeverity, .error)
        XCTAssertTrue(Rule.allCases.contains(.launchCrashLoop))
        XCTAssertNotNil(try? RuleConfiguration(json: #"{"rules":{"launch-crash-loop":"off"}}"#))
        XCTAssertThrowsError(try RuleConfiguration(json: #"{"thresholds":{"launch-crash-loop-ms":-1}}"#)) { error in
            XCTAssertTrue("\(error)".contains("\"launch-crash-loop-ms\" must be a non-negative number"), "\(error)")
        }
        XCTAssertThrowsError(try RuleConfiguration(json: #"{"thresholds":{"crash-loop-ms":1}}"#)) { error in
            XCTAssertTrue("\(error)".contains("known: slow-launch-ms, launch-crash-loop-ms"), "\(error)")
        }
    }
}
