import XCTest
@testable import LifecycleLogRules

/// Rules version 2 (issue 12): how runs end (kill, willTerminate), `unclean-exit`, `slow-launch`,
/// staged saves and `unfinished-save`, beyond what the fixtures in traces/rules/ show.
final class RulesVersion2RunTests: XCTestCase {
    private let header = #"{"format":"lifecycle-trace","version":2}"#
    private let open1 = #"{"event":"open","t":1,"window":"w1","scene":"main"}"#
    private func phase(_ p: String, t: Int) -> String { #"{"event":"phase","t":\#(t),"window":"w1","phase":"\#(p)"}"# }
    private func kill(_ reason: String, t: Int) -> String { #"{"event":"kill","t":\#(t),"reason":"\#(reason)"}"# }
    private func write(_ key: String = "notes", t: Int) -> String { #"{"event":"write","t":\#(t),"window":"w1","key":"\#(key)","scope":"shared"}"# }
    private var willTerminate: String { willTerminate(t: 50) }
    private func willTerminate(t: Int) -> String { #"{"event":"delegate","t":\#(t),"callback":"willTerminate"}"# }
    private func trace(_ lines: String...) -> String { ([header] + lines).joined(separator: "\n") }

    /// Records how each run ended, as an app's own rule hears it.
    struct RunEnds: LifecycleRule {
        let id = "run-ends"
        var severity: Severity { .warning }
        mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
            guard case .runEnded(let run, let how) = transition else { return }
            context.report("run \(run) \(how.rawValue)\(context.killReason.map { " " + $0 } ?? "")")
        }
    }

    func testAnAppRuleHearsEveryWayARunEnds() throws {
        let jsonl = trace(launch(), #"{"event":"terminate","t":1}"#,
                          launch(t: 2), willTerminate, launch(t: 60),
                          kill("user", t: 70), launch(t: 80),
                          launch(t: 90), willTerminate(t: 92), kill("crash", t: 95))
        var reducer = try LifecycleReducer(customRules: [RunEnds()])
        for (i, event) in try events(jsonl).enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
        reducer.finish()
        let ends = reducer.findings.filter { $0.rule == .custom("run-ends") }.map(\.message)
        XCTAssertEqual(ends, ["run 1 terminated", "run 2 willTerminate", "run 3 recordedKill user", "run 4 killed",
                              "run 5 recordedKill crash"])
    }

    func testAKillAfterAWillTerminateIsTheEndAndIsJudged() {
        assertFindings(trace(launch(), open1, phase("active", t: 2), willTerminate, kill("crash", t: 60)),
                       [(.uncleanExit, 5)])
    }

    func testEventsAfterAWillTerminateBelongToTheRunAndASecondOneChangesNothing() {
        // The write after the willTerminate is unsaved at the end, anchored at the first willTerminate.
        assertFindings(trace(launch(), open1, phase("active", t: 2), willTerminate, write(t: 51), willTerminate(t: 52),
                             launch(t: 100)),
                       [(.unsavedAtExit, 4)])
    }

    func testAnUnknownKillUnderADebuggerIsSilent() {
        assertFindings(trace(launch(extra: #","debugger":true"#), open1, phase("active", t: 2), kill("thermal", t: 60)), [])
    }

    func testSlowLaunchForAKilledRunNeverActive() {
        let slow = 30000
        // Watchdog: fires at the kill, whatever the phase.
        assertFindings(trace(launch(), kill("watchdog", t: slow)), [(.slowLaunch, 2), (.uncleanExit, 2)])
        // An unknown cause while inactive (not background): a slow launch, and no unclean-exit.
        assertFindings(trace(launch(), kill("thermal", t: slow)), [(.slowLaunch, 2)])
        // User, jetsam, crash and debugger kills are no slow launch.
        for reason in ["user", "jetsam", "debugger", "harness"] {
            assertFindings(trace(launch(), kill(reason, t: slow)), [])
        }
        assertFindings(trace(launch(), kill("crash", t: slow)), [(.uncleanExit, 2)])
        // Under a debugger, an unrecorded end is never a killed slow launch.
        assertFindings(trace(launch(extra: #","debugger":true"#), launch(t: slow)), [])
        // A willTerminate end is clean.
        assertFindings(trace(launch(), #"{"event":"delegate","t":30000,"callback":"willTerminate"}"#, launch(t: 40000)), [])
    }

    func testAPairedEndTakesOffABackgroundKeyItsVersionCovers() {
        // Readings 18: the key went to the background at version 1; a write in the background makes
        // version 2; a begin then an end saving version 2 takes it off.
        assertFindings(trace(launch(), open1, phase("active", t: 2), write(t: 3), phase("inactive", t: 4), phase("background", t: 5),
                             write(t: 6), #"{"event":"save","t":7,"stage":"begin","id":"a"}"#,
                             #"{"event":"save","t":8,"stage":"end","id":"a"}"#, phase("inactive", t: 9)), [])
        // Begun at version 1, and the key went to the background at version 2: the end saves too little.
        assertFindings(trace(launch(), open1, phase("active", t: 2), write(t: 3), #"{"event":"save","t":4,"stage":"begin","id":"a"}"#,
                             write(t: 5), phase("inactive", t: 6), phase("background", t: 7),
                             #"{"event":"save","t":8,"stage":"end","id":"a"}"#, phase("inactive", t: 9)),
                       [(.missedBackgroundSave, 8)])
    }

    func testAnEndWithoutIdPairsOnlyWithTheSameStore() {
        // The end names another store: it is an instantaneous save, and the begin stays open.
        assertFindings(trace(launch(), open1, phase("active", t: 2), write(t: 3),
                             #"{"event":"save","t":4,"stage":"begin","store":"a"}"#,
                             #"{"event":"save","t":5,"stage":"end","store":"b"}"#, #"{"event":"terminate","t":6}"#),
                       [(.unfinishedSave, 7)])
    }

    func testUnfinishedSaveListsEveryOpenBeginOnceAndIsJudgedAtAWillTerminateEnd() throws {
        let jsonl = trace(launch(), open1, phase("active", t: 2), write(t: 3),
                          #"{"event":"save","t":4,"stage":"begin","id":"a"}"#, #"{"event":"save","t":5,"stage":"begin","id":"b"}"#,
                          #"{"event":"activity","t":6,"name":"task","state":"expire"}"#,
                          #"{"event":"save","t":7,"stage":"begin","id":"c"}"#, willTerminate)
        assertFindings(jsonl, [(.unfinishedSave, 7), (.unfinishedSave, 9), (.unsavedAtExit, 9)])
        let findings = try replayFindings(jsonl).filter { $0.rule == .unfinishedSave }
        XCTAssertEqual(findings.map(\.related), [[5, 6], [8]], "each begin once: at the expire, or else at the end")
    }

    func testUnfinishedSaveIsACatalogueRuleAndSwitchingItOffChangesOnlyItsFindings() throws {
        XCTAssertEqual(Rule(rawValue: "unfinished-save"), .unfinishedSave)
        XCTAssertEqual(Rule.unfinishedSave.defaultSeverity, .error)
        XCTAssertNotNil(try? RuleConfiguration(json: #"{"rules":{"unfinished-save":"warning"}}"#))
        // Readings 5: off, the begin it would have reported at the expire is still not reported
        // at the end (re-graded to a warning, the finding stays at the expire).
        let jsonl = trace(launch(), open1, phase("active", t: 2), #"{"event":"save","t":3,"stage":"begin","id":"a"}"#,
                          #"{"event":"activity","t":4,"name":"task","state":"expire"}"#, #"{"event":"terminate","t":5}"#)
        for severity in [nil, Severity.warning] {
            var configuration = RuleConfiguration()
            configuration.severities[.unfinishedSave] = .some(severity)
            var reducer = LifecycleReducer(configuration: configuration)
            for (i, event) in try events(jsonl).enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
            reducer.finish()
            XCTAssertEqual(reducer.findings.map(\.seq), severity == nil ? [] : [5])
        }
    }

    func testAPrewarmedLaunchStartsInTheBackground() {
        // Straight to active is a phase-skip, as after a background launch; no slow-launch however late.
        assertFindings(trace(launch(extra: #","reason":"prewarm""#), #"{"event":"phase","t":40000,"phase":"active"}"#), [(.phaseSkip, 2)])
    }

    func testSlowLaunchSkipsAgentsButNotDebuggerRuns() {
        let late = #"{"event":"phase","t":30000,"phase":"active"}"#
        assertFindings(trace(launch("macOS", extra: #","activation":"prohibited""#), late), [])
        assertFindings(trace(launch("macOS", extra: #","debugger":true"#), late), [(.slowLaunch, 2)])
    }

    func testAKillIsNeverAnUpdateAndAnUpdateExplainsOnlyAnUnrecordedEnd() {
        // Run 1 ended active by the next launch of a new build: an update, silent. Run 2 ended
        // active by a kill of an unknown reason, then a launch of yet another build: fires at the kill.
        assertFindings(trace(launch(), open1, phase("active", t: 2), launch(t: 10, extra: #","build":"2""#),
                             #"{"event":"open","t":11,"window":"w1","scene":"main"}"#, phase("active", t: 12), kill("thermal", t: 13), launch(t: 20, extra: #","build":"3""#)),
                       [(.uncleanExit, 7)])
    }
}
