import XCTest
@testable import LifecycleLogRules

/// Live checking (issue 20.5): the findings of a session folded while it is recorded equal
/// replay's, byte for byte in JSON; they come through the callback, the stream and the
/// reporters; the check is bounded. (Against generated sessions, and through swift-log: LifecycleLogTests'
/// `LiveCheckTests`.)
final class LiveCheckTests: XCTestCase {
    final class Collected: LiveFindingReporter, @unchecked Sendable {
        // @unchecked: `lines` is only touched under `lock`.
        private let lock = Locked<[String]>([])
        func report(_ finding: Finding, message: String) { lock.withLock { $0.append(message) } }
        var lines: [String] { lock.withLock { $0 } }
    }

    func testARecorderWithALiveCheckReportsFindingsAsTheRulesDecideThem() async throws {
        let memory = MemorySink()
        let reporter = Collected()
        let called = Locked<[Finding]>([])
        let live = try LiveCheck(forwardingTo: memory, reporters: [reporter]) { f in called.withLock { $0.append(f) } }
        let recorder = LifecycleRecorder(sink: live, clock: { 0 })
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "note", kind: .windowGroup)])  // 1
        recorder.open(window: "n1", scene: "note")                                                 // 2
        recorder.phase(.active, window: "n1")                                                      // 3
        recorder.write(key: "notes", scope: .shared, window: "n1")                                 // 4
        recorder.phase(.inactive, window: "n1")                                                    // 5
        recorder.phase(.background, window: "n1")  // 6: urgent, committed by the call
        live.waitUntilChecked()
        // A save may still come while in the background: missed-background-save is decided when the
        // state comes back or the run ends (rules.md). Nothing is decided yet.
        XCTAssertEqual(called.withLock { $0 }.count, 0)
        recorder.phase(.inactive, window: "n1")                                                    // 7: back, unsaved
        try recorder.flush()
        live.waitUntilChecked()
        XCTAssertEqual(called.withLock { $0 }.map(\.rule), [.missedBackgroundSave], "decided when the window came back, before the session ends")
        XCTAssertEqual(memory.events.count, 7, "the wrapped sink has every event")
        XCTAssertEqual(reporter.lines.count, 1)
        XCTAssertTrue(reporter.lines.first?.hasPrefix("LifecycleLog: error [missed-background-save] at event 6 of memory: Unsaved \"notes\"") == true, "\(reporter.lines)")
        try recorder.close()  // closes the live check: the stream ends
        var streamed: [Rule] = []
        for await f in live.findings { streamed.append(f.rule) }
        XCTAssertEqual(streamed, [.missedBackgroundSave])
        XCTAssertEqual(try Replayer.replay(events: memory.events).findings, live.checkedFindings)
    }

    func testAFindingThatWaitsForTheEndComesAtFinish() throws {
        let live = try LiveCheck()
        let events = try events("""
            {"t":0,"event":"launch","platform":"macOS","scenes":[{"id":"note","kind":"WindowGroup"}]}
            {"t":1,"event":"open","window":"n1","scene":"note"}
            {"t":2,"event":"write","key":"notes","scope":"shared","window":"n1"}
            {"t":3,"event":"terminate"}

            """)
        try live.write(events)
        live.waitUntilChecked()
        let before = live.checkedFindings.count
        live.finish()
        XCTAssertEqual(live.checkedFindings.map(\.rule), try Replayer.replay(events: events).findings.map(\.rule))
        XCTAssertLessThanOrEqual(before, live.checkedFindings.count)
        try live.write(events)  // after finish: not checked
        XCTAssertEqual(live.checkedEventCount, 4)
    }

    func testALiveCheckThatFallsBehindStopsAndSaysSoOnce() throws {
        let reporter = Collected()
        let live = try LiveCheck(reporters: [reporter], maxQueuedEvents: 3)
        let many = try events(String(repeating: #"{"t":0,"event":"mark","label":"x"}"# + "\n", count: 4))
        try live.write(many)          // 4 > 3: refused whole, the check stops
        try live.write([many[0]])     // still stopped: not told again
        live.waitUntilChecked()
        XCTAssertEqual(live.checkedEventCount, 0)
        XCTAssertTrue(live.stopReason?.contains("fell 4 events behind the recording (the limit is 3)") == true, live.stopReason ?? "")
        XCTAssertEqual(reporter.lines.count, 1)
        XCTAssertTrue(reporter.lines[0].hasPrefix("LifecycleLog: the live check fell 4 events behind"), reporter.lines[0])
    }

    func testABadAppRuleIsAThrownError() {
        struct Named: LifecycleRule {
            let id = "lost-update"
            mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {}
        }
        XCTAssertThrowsError(try LiveCheck(customRules: [Named()])) { XCTAssertTrue("\($0)".contains("is a rule of the catalogue"), "\($0)") }
    }
}
