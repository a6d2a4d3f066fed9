import XCTest
import Logging
@testable import LifecycleLog
import LifecycleLogLive

/// Live checking (issue 20.5): the findings of a session folded while it is recorded equal
/// replay's, byte for byte in JSON; they come through the callback, the stream and the
/// reporters; the check is bounded. Here, what needs the trace generator or swift-log; the rest is
/// LifecycleLogRulesTests' `LiveCheckTests`.
final class LiveCheckTests: XCTestCase {
    /// A deterministic generator of batch sizes (xorshift), as a recorder's commits cut a session.
    struct Batches {
        var state: UInt64
        mutating func next(upTo limit: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return 1 + Int(state % UInt64(limit))
        }
    }

    func testLiveFindingsEqualReplaysOnGeneratedSessionsByteForByte() throws {
        var sessions = 0, findings = 0
        for version in [1, 2] {
            for seed in UInt64(1)...1_200 {
                var events: [LifecycleEvent] = []
                TraceGenerator.generate(.init(events: 400, seed: seed, windows: 1 + Int(seed % 5), bugRate: 8, formatVersion: version)) {
                    events.append($0)
                }
                let replayed = try Replayer.replay(events: events).findings.map(ReplayReport.jsonFinding)
                let live = try LiveCheck()
                var batches = Batches(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
                var at = 0
                while at < events.count {
                    let n = min(batches.next(upTo: 64), events.count - at)
                    try live.write(Array(events[at..<at + n]))
                    at += n
                }
                live.finish()
                XCTAssertEqual(live.checkedFindings.map(ReplayReport.jsonFinding), replayed,
                               "format \(version), seed \(seed): live findings differ from replay's")
                XCTAssertEqual(live.checkedEventCount, UInt64(events.count))
                sessions += 1
                findings += replayed.count
            }
        }
        XCTAssertEqual(sessions, 2_400)
        XCTAssertGreaterThan(findings, 1_000, "the generated sessions have findings to compare")
    }

    func testTheLoggerReporterLogsAtTheFindingsLevelWithMetadata() throws {
        let handler = CapturingLogHandler()
        let reporter = LoggerReporter(handler.logger)
        let finding = Finding(rule: .lostUpdate, severity: .error, seq: 8, related: [6], message: "lost")
        reporter.report(finding, message: LiveCheck.message(for: finding, destination: "memory"))
        let entries = handler.entries.withLock { $0 }
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0].level, .error)
        XCTAssertEqual(entries[0].message, "LifecycleLog: error [lost-update] at event 8 of memory: lost")
        XCTAssertEqual(entries[0].metadata["lifecyclelog.rule"], "lost-update")
        XCTAssertEqual(entries[0].metadata["lifecyclelog.seq"], "8")
        XCTAssertEqual(LiveCheck.standardReporters(logger: Logger(label: "x")).count, 2)
    }
}
