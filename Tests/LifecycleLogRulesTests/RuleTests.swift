import XCTest
@testable import LifecycleLogRules

/// Each rule of rules.md, beyond what the fixtures in traces/ show.
final class RuleTests: XCTestCase {
    private func phase(_ p: String, _ window: String? = "w1", t: Int) -> String {
        window.map { #"{"event":"phase","t":\#(t),"window":"\#($0)","phase":"\#(p)"}"# } ?? #"{"event":"phase","t":\#(t),"phase":"\#(p)"}"#
    }
    private func write(_ key: String, _ scope: String = "shared", window: String? = "w1", t: Int, base: Int? = nil) -> String {
        var s = #"{"event":"write","t":\#(t),"key":"\#(key)","scope":"\#(scope)""#
        if let window { s += #","window":"\#(window)""# }
        if let base { s += #","base":\#(base)"# }
        return s + "}"
    }

    func testMissedBackgroundSaveIsClearedByASaveWhileInTheBackground() {
        assertFindings([launch(), open1, phase("active", t: 2), write("notes", t: 3), phase("inactive", t: 4),
                        phase("background", t: 5), #"{"event":"save","t":6}"#, phase("inactive", t: 7)].joined(separator: "\n"), [])
    }

    func testAPartialSaveLeavesTheOtherKeysMissed() throws {
        let trace = [launch(), open1, phase("active", t: 2), write("notes", t: 3), write("theme", "app", t: 4),
                     phase("inactive", t: 5), phase("background", t: 6), #"{"event":"save","t":7,"keys":["theme"]}"#,
                     #"{"event":"terminate","t":8}"#].joined(separator: "\n")
        assertFindings(trace, [(.missedBackgroundSave, 7)])
        let finding = try replayFindings(trace)[0]
        XCTAssertTrue(finding.message.contains("\"notes\" (shared)"))
        XCTAssertFalse(finding.message.contains("theme"), "the saved key is not missed: \(finding.message)")
    }

    func testDismissingTheLastForegroundWindowSendsAppStateToTheBackground() {
        // w2 is in the background; dismissing the active w1 makes the app phase background.
        assertFindings([launch("macOS"), open1, #"{"event":"open","t":2,"window":"w2","scene":"main"}"#,
                        phase("active", t: 3), phase("background", "w2", t: 4), write("notes", t: 5),
                        #"{"event":"dismiss","t":6,"window":"w1"}"#, #"{"event":"terminate","t":7}"#].joined(separator: "\n"),
                       [(.missedBackgroundSave, 7)])
    }

    func testKeysAMissedSaveReportedAreNotReportedAgainAtExit() {
        // notes is missed at seq 6; theme, written in the background, is unsaved at exit.
        assertFindings([launch(), open1, phase("active", t: 2), write("notes", t: 3), phase("inactive", t: 4),
                        phase("background", t: 5), write("theme", "app", window: nil, t: 6),
                        launch(t: 100)].joined(separator: "\n"),
                       [(.missedBackgroundSave, 6), (.unsavedAtExit, 8)])
    }

    func testAWindowDismissedInTheBackgroundWithADirtyDraftIsBothMissedAndUnsaved() {
        assertFindings([launch(), open1, phase("active", t: 2), write("draft", "scene", t: 3), phase("inactive", t: 4),
                        phase("background", t: 5), #"{"event":"dismiss","t":6,"window":"w1"}"#].joined(separator: "\n"),
                       [(.missedBackgroundSave, 6), (.unsavedDismiss, 7)])
    }

    func testLostUpdateWithAnExplicitStaleBase() {
        assertFindings([launch(), open1, #"{"event":"open","t":2,"window":"w2","scene":"main"}"#,
                        write("notes", t: 3), write("notes", window: "w2", t: 4, base: 1), write("notes", t: 5, base: 1)].joined(separator: "\n"),
                       [(.lostUpdate, 6)])
    }

    func testAWindowsOwnConsecutiveWritesAreNoLostUpdate() {
        assertFindings([launch(), open1, write("notes", t: 3), write("notes", t: 4, base: 0), #"{"event":"save","t":5}"#].joined(separator: "\n"), [])
    }

    func testAWindowOpenedAfterAWriteHasSeenIt() {
        assertFindings([launch(), open1, write("notes", t: 2), #"{"event":"open","t":3,"window":"w2","scene":"main"}"#,
                        write("notes", window: "w2", t: 4), #"{"event":"save","t":5}"#].joined(separator: "\n"), [])
    }

    func testTheAppWriterOfALaterRunStartsFromTheSavedVersionNotTheUnsavedOne() {
        // Run 1 writes twice but saves only the first; run 2's app writer has seen version 1 (saved): no lost update.
        assertFindings([launch(), open1, write("k", t: 2), #"{"event":"save","t":3}"#, write("k", t: 4),
                        #"{"event":"terminate","t":5}"#, launch(t: 10), write("k", window: nil, t: 11), #"{"event":"save","t":12}"#].joined(separator: "\n"),
                       [(.unsavedAtExit, 6)])
    }

    func testAFlaggedOpenOpensNothingAndAFlaggedSceneStillOpens() {
        let withSettings = #"[{"id":"main","kind":"WindowGroup"},{"id":"settings","kind":"Settings"}]"#
        assertFindings([launch(scenes: withSettings), open1, #"{"event":"open","t":2,"window":"w1","scene":"settings"}"#,
                        #"{"event":"open","t":3,"window":"w2","scene":"ghost"}"#,
                        phase("active", "w2", t: 4), #"{"event":"dismiss","t":5,"window":"w1"}"#,
                        #"{"event":"dismiss","t":6,"window":"w1"}"#].joined(separator: "\n"),
                       [(.unsupportedScene, 1), (.unknownWindow, 3), (.undeclaredScene, 4), (.unknownWindow, 7)])
    }

    func testUnknownKindsAreOnlyEverUnknownEventEvenBeforeLaunch() {
        assertFindings([#"{"event":"telemetry","t":0}"#, #"{"event":"telemetry","t":1}"#, launch(t: 2)].joined(separator: "\n"),
                       [(.unknownEvent, 1)])
    }

    func testRestorationByWindowIDWhenThereIsNoValue() {
        assertFindings([launch(), open1, write("draft", "scene", t: 2), #"{"event":"save","t":3,"window":"w1"}"#,
                        #"{"event":"terminate","t":4}"#, launch(t: 10),
                        #"{"event":"open","t":11,"window":"w1","scene":"main","restored":true}"#,
                        #"{"event":"read","t":12,"window":"w1","key":"draft","scope":"scene","version":0}"#,
                        #"{"event":"open","t":13,"window":"w2","scene":"main","restored":true}"#,
                        #"{"event":"read","t":14,"window":"w2","key":"draft","scope":"scene","version":0}"#].joined(separator: "\n"),
                       [(.sceneStorageLost, 8)])
    }

    func testARestoredWindowStartsCleanAtTheSavedVersion() throws {
        var reducer = LifecycleReducer()
        let trace = try events([launch(), open1, write("draft", "scene", t: 2), write("draft", "scene", t: 3),
                                #"{"event":"save","t":4,"window":"w1"}"#, write("draft", "scene", t: 5), launch(t: 10),
                                #"{"event":"open","t":11,"window":"w1","scene":"main","restored":true}"#].joined(separator: "\n"))
        for (i, e) in trace.enumerated() { reducer.apply(seq: UInt64(i + 1), e) }
        let key = try XCTUnwrap(reducer.state.windows.first?.keys.first)
        XCTAssertEqual(key.version, 2)
        XCTAssertEqual(key.savedVersion, 2)
        XCTAssertFalse(key.isDirty)
    }

    func testBackgroundLaunchesAreNeverSlowAndUpdatesAreNoUncleanExit() {
        assertFindings([launch(extra: #","reason":"background","os":"18.0""#), open1,
                        phase("inactive", t: 29999), phase("active", t: 30000), launch(t: 40000, extra: #","os":"18.1""#)].joined(separator: "\n"), [])
    }

    func testPhaseSkipAppliesToMacCatalystButNotMacOS() {
        assertFindings([launch("macCatalyst"), open1, phase("active", t: 2), phase("background", t: 3)].joined(separator: "\n"),
                       [(.phaseSkip, 4)])
        assertFindings([launch("macOS"), open1, phase("active", t: 2), phase("background", t: 3)].joined(separator: "\n"), [])
    }

    func testAppPhaseMismatchIsNotCheckedWhenNoWindowHasAPhaseOfItsOwn() {
        assertFindings([launch(), open1, phase("active", nil, t: 2), phase("inactive", nil, t: 3)].joined(separator: "\n"), [])
    }

    func testWindowsFollowTheAppLevelPhaseUntilTheyHaveTheirOwn() throws {
        var reducer = LifecycleReducer()
        for (i, e) in try events([launch(), open1, phase("active", nil, t: 2)].joined(separator: "\n")).enumerated() {
            reducer.apply(seq: UInt64(i + 1), e)
        }
        XCTAssertEqual(reducer.state.windows.first?.phase, .active)
        XCTAssertEqual(reducer.state.appPhase, .active)
        XCTAssertFalse(try XCTUnwrap(reducer.state.windows.first).hasOwnPhase)
    }

    func testRuleConfigurationSwitchesOffRegradesAndSetsThresholds() throws {
        let configuration = try RuleConfiguration(json: #"{"rules":{"phase-skip":"off","unclean-exit":"error"},"thresholds":{"slow-launch-ms":1000}}"#)
        var reducer = LifecycleReducer(configuration: configuration)
        let trace = [launch(), open1, phase("active", t: 2000), phase("background", t: 2001), phase("active", t: 2002), launch(t: 3000)]
        for (i, e) in try events(trace.joined(separator: "\n")).enumerated() { reducer.apply(seq: UInt64(i + 1), e) }
        reducer.finish()
        XCTAssertEqual(reducer.findings.map { "\($0.seq) \($0.rule.rawValue) \($0.severity.rawValue)" },
                       ["3 slow-launch warning", "6 unclean-exit error"])
        XCTAssertThrowsError(try RuleConfiguration(json: #"{"rules":{"no-such-rule":"off"}}"#)) { error in
            XCTAssertTrue("\(error)".contains("unknown rule \"no-such-rule\""))
        }
    }

    func testFindingsAreSortedBySeqThenRule() throws {
        let findings = try replayFindings(try String(contentsOfFile: "\(repositoryRoot)/traces/rules/phase-skip.jsonl", encoding: .utf8))
        let keys = findings.map { ($0.seq, $0.rule.rawValue) }
        XCTAssertEqual(keys.map(\.0), keys.map(\.0).sorted())
        XCTAssertEqual(findings.filter { $0.seq == 6 }.map(\.rule), [.appPhaseMismatch, .phaseSkip])
    }
}
