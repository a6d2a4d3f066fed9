import XCTest
@testable import LifecycleLog

/// An app's own rules (`LifecycleRule`): the two examples of WritingARule.md,
/// replayed from JSON Lines and from a trace file.

/// "The player window never opens twice": a second window of scene `player`
/// opens while one is open. (`duplicate-window` cannot know this: a
/// `WindowGroup` may have many windows.)
struct PlayerWindowOpensOnce: LifecycleRule {
    let id = "player-window-once"

    mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
        guard case .windowOpened(let window, scene: "player", _) = transition else { return }
        let open = context.openWindows(ofScene: "player")
        guard open.count > 1 else { return }
        context.report("Player window \(window) opened while \(open[0]) is open. Bring the open player forward (openWindow(id:) with a Window scene) instead.")
    }
}

/// "The draft is saved within 2 s of going inactive": the scene key `draft`
/// has unsaved changes when a phase becomes inactive, and no save of it comes
/// within `limit` ms. The finding is anchored at the phase event, decided
/// later: ``undecidedSince`` holds findings back until then.
struct DraftSavedPromptly: LifecycleRule {
    let id = "draft-saved-promptly"
    var severity: Severity { .warning }
    var limit: Double = 2000
    /// Whether the draft has changes not saved yet.
    var dirty = false
    /// The phase event that made the clock start, with its time.
    var inactiveAt: (seq: UInt64, t: Double)?

    var undecidedSince: UInt64? { inactiveAt?.seq }

    mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
        if let since = inactiveAt, context.t - since.t > limit { miss(in: &context) }
        switch transition {
        case .keyWritten(key: "draft", _, _, _, _):
            dirty = true
        case .keySaved(key: "draft", _, _):
            dirty = false
            inactiveAt = nil
        case .phaseChanged(_, _, to: .inactive):
            if dirty, inactiveAt == nil { inactiveAt = (context.seq, context.t) }
        case .runEnded:
            miss(in: &context)
            dirty = false
        default:
            break
        }
    }

    mutating func finish(in context: inout LifecycleRuleContext) { miss(in: &context) }

    private mutating func miss(in context: inout LifecycleRuleContext) {
        guard let since = inactiveAt else { return }
        inactiveAt = nil
        context.report(at: since.seq, "The draft went inactive unsaved and was not saved within \(Int(limit)) ms. Save it in onChange(of: scenePhase) when the phase becomes .inactive.")
    }
}

final class CustomRuleTests: XCTestCase {
    private let scenes = #"[{"id":"main","kind":"WindowGroup"},{"id":"player","kind":"WindowGroup"}]"#

    /// Both rules fire: a second player window at seq 5, a draft saved 2.95 s after going inactive at seq 7.
    private var firing: String {
        [launch(scenes: scenes),
         #"{"event":"open","t":5,"window":"w1","scene":"main"}"#,
         #"{"event":"phase","t":10,"phase":"active"}"#,
         #"{"event":"open","t":20,"window":"p1","scene":"player"}"#,
         #"{"event":"open","t":30,"window":"p2","scene":"player"}"#,
         #"{"event":"write","t":40,"window":"w1","key":"draft","scope":"scene"}"#,
         #"{"event":"phase","t":50,"phase":"inactive"}"#,
         #"{"event":"save","t":3000}"#,
         #"{"event":"terminate","t":3100}"#].joined(separator: "\n") + "\n"
    }

    /// Neither fires: the player reopens only after its dismiss, and the draft is saved 0.5 s after going inactive.
    private var silent: String {
        [launch(scenes: scenes),
         #"{"event":"open","t":5,"window":"w1","scene":"main"}"#,
         #"{"event":"phase","t":10,"phase":"active"}"#,
         #"{"event":"open","t":20,"window":"p1","scene":"player"}"#,
         #"{"event":"dismiss","t":25,"window":"p1"}"#,
         #"{"event":"open","t":30,"window":"p2","scene":"player"}"#,
         #"{"event":"write","t":40,"window":"w1","key":"draft","scope":"scene"}"#,
         #"{"event":"phase","t":50,"phase":"inactive"}"#,
         #"{"event":"save","t":550}"#,
         #"{"event":"terminate","t":3100}"#].joined(separator: "\n") + "\n"
    }

    private var rules: [any LifecycleRule] { [PlayerWindowOpensOnce(), DraftSavedPromptly()] }

    func testAppRulesFireInJSONLinesAndTraceFiles() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.write("firing.jsonl", firing)
        let stored = folder.file("firing.lmdb")
        try TraceInterchange.importJSONLines(from: jsonl, to: stored)
        for path in [jsonl, stored] {
            let report = try Replayer.replay(path, customRules: rules)
            XCTAssertEqual(report.findings.map(\.rule), [.custom("player-window-once"), .custom("draft-saved-promptly")], path)
            XCTAssertEqual(report.findings.map(\.seq), [5, 7], path)
            XCTAssertEqual(report.findings.map(\.severity), [.error, .warning], path)
            XCTAssertEqual(report.findings.first?.message,
                           "Player window p2 opened while p1 is open. Bring the open player forward (openWindow(id:) with a Window scene) instead.")
            XCTAssertEqual([report.errors, report.warnings], [1, 1])
        }
        // Without the app's rules, the catalogue finds nothing in this trace.
        XCTAssertEqual(try Replayer.replay(jsonl).findings, [])
    }

    func testAppRulesStaySilentWhenTheInvariantsHold() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.write("silent.jsonl", silent)
        let stored = folder.file("silent.lmdb")
        try TraceInterchange.importJSONLines(from: jsonl, to: stored)
        for path in [jsonl, stored] {
            XCTAssertEqual(try Replayer.replay(path, customRules: rules).findings, [], path)
        }
    }

    func testADeadlineNeverMetIsReportedAtTheEndOfTheTraceInOrder() throws {
        // No save and no later event: finish() decides it. The catalogue's unsaved-at-exit does not
        // come (no run end); the finding at seq 7 comes before nothing else.
        let trace = firing.split(separator: "\n").prefix(7).joined(separator: "\n") + "\n"
        var reducer = try LifecycleReducer(customRules: rules)
        for (i, event) in try events(trace).enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
        XCTAssertEqual(reducer.findings.map(\.seq), [5], "seq 7 waits for its deadline")
        reducer.finish()
        XCTAssertEqual(reducer.findings.map(\.seq), [5, 7])
    }

    func testAppRuleSeveritiesFollowTheConfiguration() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.write("firing.jsonl", firing)
        var configuration = RuleConfiguration()
        configuration.severities[.custom("player-window-once")] = .some(nil)
        configuration.severities[.custom("draft-saved-promptly")] = .error
        let report = try Replayer.replay(jsonl, configuration: configuration, customRules: rules)
        XCTAssertEqual(report.findings.map(\.rule), [.custom("draft-saved-promptly")])
        XCTAssertEqual(report.findings.map(\.severity), [.error])
    }

    func testAppRuleIdsMustBeTheirOwn() throws {
        struct Named: LifecycleRule {
            let id: String
            mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {}
        }
        let folder = TemporaryFolder()
        let jsonl = folder.write("silent.jsonl", silent)
        for rules: [any LifecycleRule] in [[Named(id: "lost-update")], [Named(id: "a"), Named(id: "a")], [Named(id: "with \"quote\"")]] {
            XCTAssertThrowsError(try Replayer.replay(jsonl, customRules: rules)) { error in
                XCTAssertEqual((error as? LifecycleLogError)?.code, .invalidArgument)
            }
        }
    }
}
