import XCTest
@testable import LifecycleLogRules

/// Every finding's output is bounded (issue 28, item 4; spec/rules.md, Readings 24): a finding
/// names at most `FindingBound.items` (10) of what it lists and says how many more, and its related
/// seqs and each list of its subject keep the first 10. A finding under the bound is unchanged
/// (the fixtures in traces/ check that).
final class BoundedFindingTests: XCTestCase {
    private let bound = FindingBound.items
    private let header = #"{"format":"lifecycle-trace","version":2}"#

    /// One window that writes `keys` keys of `scope` (`k1` …, seqs 4 on), then `ending`.
    private func keyTrace(keys: Int, scope: String, ending: [String]) -> String {
        var lines = [launch(), open1, #"{"event":"phase","t":2,"window":"w1","phase":"active"}"#]
        for i in 1...keys {
            lines.append(#"{"event":"write","t":\#(i + 2),"key":"k\#(i)","scope":"\#(scope)","window":"w1"}"#)
        }
        return (lines + ending).joined(separator: "\n")
    }

    /// The names the first `bound` of `names` sorted by their UTF-8 bytes.
    private func firstSorted(_ names: [String]) -> [String] {
        Array(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(bound))
    }

    // MARK: activity-in-background

    func testActivitiesPastTheBoundAreCountedNotListed() throws {
        let findings = try replayFindings(activityTrace(activities: 5_000, trips: 200))
        XCTAssertEqual(findings.count, 200, findings.prefix(3).map(\.message).joined(separator: "\n"))
        let wanted = firstSorted((1...5_000).map { "a\($0)" })
        for finding in findings {
            XCTAssertEqual(finding.rule, .activityInBackground)
            let message = finding.message
            XCTAssertTrue(message.contains("and 4,990 more still running"), message)
            XCTAssertEqual(count("\"a", in: message), bound, message)
            XCTAssertTrue(message.hasPrefix("Went to the background with window w1's " + wanted.map { "\"\($0)\"" }.joined(separator: ", ")), message)
            XCTAssertLessThan(message.utf8.count, 1_000)
            // The first starts (seqs 4 to 5,003), ascending.
            XCTAssertEqual(finding.related, Array(4...UInt64(3 + bound)))
            let subject = try XCTUnwrap(finding.subject)
            XCTAssertEqual(subject.details, wanted.map { "activity:\($0)" })
            XCTAssertEqual(subject.scenes, ["main"])
        }
    }

    func testAFindingAtTheBoundListsEverythingAndOnePastItCountsOne() throws {
        let atBound = try XCTUnwrap(replayFindings(activityTrace(activities: bound, trips: 1)).first)
        XCTAssertEqual(count("\"a", in: atBound.message), bound, atBound.message)
        XCTAssertFalse(atBound.message.contains("more"), atBound.message)
        XCTAssertEqual(atBound.related.count, bound)
        XCTAssertEqual(atBound.subject?.details.count, bound)

        let past = try XCTUnwrap(replayFindings(activityTrace(activities: bound + 1, trips: 1)).first)
        XCTAssertEqual(count("\"a", in: past.message), bound, past.message)
        XCTAssertTrue(past.message.contains(" and 1 more still running"), past.message)
        XCTAssertEqual(past.related.count, bound)
        XCTAssertEqual(past.subject?.details.count, bound)
    }

    func testWindowAndAppActivitiesShareTheBound() throws {
        // Two windows with 6 activities each and 6 app-wide ones, all sent to the background by
        // one app-level phase event: 10 named (6 of w1, 4 of w2), 8 more.
        var lines = [launch(), open1, #"{"event":"open","t":1,"window":"w2","scene":"main"}"#, #"{"event":"phase","t":2,"phase":"active"}"#]
        for i in 1...6 {
            lines.append(#"{"event":"activity","t":3,"window":"w1","name":"w1-\#(i)","state":"start"}"#)
            lines.append(#"{"event":"activity","t":3,"window":"w2","name":"w2-\#(i)","state":"start"}"#)
            lines.append(#"{"event":"activity","t":3,"name":"app-\#(i)","state":"start"}"#)
        }
        lines += [#"{"event":"phase","t":4,"phase":"inactive"}"#, #"{"event":"phase","t":5,"phase":"background"}"#]
        let finding = try XCTUnwrap(replayFindings(lines.joined(separator: "\n")).first)
        XCTAssertEqual(finding.rule, .activityInBackground)
        XCTAssertEqual(count("\"w1-", in: finding.message) + count("\"w2-", in: finding.message) + count("\"app-", in: finding.message), bound,
                       finding.message)
        XCTAssertTrue(finding.message.contains(" and 8 more still running"), finding.message)
        XCTAssertFalse(finding.message.contains("the app-wide"), finding.message)
        XCTAssertEqual(finding.related.count, bound)
        // The subject's first details in byte order: every window activity, then the app's.
        XCTAssertEqual(finding.subject?.details, firstSorted((1...6).flatMap { ["activity:w1-\($0)", "activity:w2-\($0)"] }))
    }

    // MARK: keys

    func testUnsavedKeysPastTheBoundAreCountedNotListed() throws {
        let keys = 5_000
        let shared = firstSorted((1...keys).map { "k\($0)" })
        let cases: [(rule: Rule, trace: String, explore: Bool, keyNames: [String])] = [
            (.unsavedAtExit, keyTrace(keys: keys, scope: "shared", ending: [#"{"event":"terminate","t":9000}"#]), false,
             shared.map { "shared:\($0)" }),
            (.missedBackgroundSave, keyTrace(keys: keys, scope: "shared", ending: [
                #"{"event":"phase","t":9000,"window":"w1","phase":"inactive"}"#, #"{"event":"phase","t":9001,"window":"w1","phase":"background"}"#,
                #"{"event":"terminate","t":9002}"#,
            ]), false, shared.map { "shared:\($0)" }),
            (.unsavedDismiss, keyTrace(keys: keys, scope: "scene", ending: [#"{"event":"dismiss","t":9000,"window":"w1"}"#]), false,
             shared.map { "scene:\($0)" }),
            (.killExposure, keyTrace(keys: keys, scope: "shared", ending: [
                #"{"event":"phase","t":9000,"window":"w1","phase":"inactive"}"#, #"{"event":"save","t":9001}"#,
            ]), true, shared.map { "shared:\($0)" }),
        ]
        for c in cases {
            let findings = try replayFindings(c.trace, explore: c.explore).filter { $0.rule == c.rule }
            let finding = try XCTUnwrap(findings.first, "no \(c.rule.rawValue)")
            XCTAssertEqual(findings.count, 1, "\(c.rule.rawValue)")
            let message = finding.message
            XCTAssertTrue(message.contains(" and 4,990 more"), "\(c.rule.rawValue): \(message)")
            XCTAssertEqual(count("\"k", in: message), bound, "\(c.rule.rawValue): \(message)")
            XCTAssertLessThan(message.utf8.count, 1_500, "\(c.rule.rawValue)")
            // The keys in report order: their names by UTF-8 bytes ("k1", "k10", "k100", …).
            XCTAssertTrue(message.contains(#""k1" ("#) && message.contains(#""k1006" ("#) && !message.contains(#""k1007" ("#),
                          "\(c.rule.rawValue): \(message)")
            XCTAssertLessThanOrEqual(finding.related.count, bound, "\(c.rule.rawValue)")
            if c.rule != .killExposure {
                // The last write of each key (seqs 4 to 5,003): the first ten.
                XCTAssertEqual(finding.related, Array(4...UInt64(3 + bound)), "\(c.rule.rawValue)")
            }
            XCTAssertEqual(finding.subject?.keys, c.keyNames, "\(c.rule.rawValue)")
        }
    }

    // MARK: other lists

    func testSaveBeginsScenesAndRestoredWindowsPastTheBoundAreCounted() throws {
        // unfinished-save: 30 begins open at the run's end.
        var saves = [header, launch(), open1, #"{"event":"phase","t":2,"window":"w1","phase":"active"}"#]
        for i in 1...30 { saves.append(#"{"event":"save","t":3,"stage":"begin","id":"s\#(i)"}"#) }
        saves.append(#"{"event":"terminate","t":4}"#)
        let unfinished = try XCTUnwrap(replayFindings(saves.joined(separator: "\n")).first { $0.rule == .unfinishedSave })
        XCTAssertTrue(unfinished.message.hasPrefix("The saves begun at seq 4, seq 5, seq 6, seq 7, seq 8, seq 9, seq 10, seq 11, seq 12, seq 13 and 20 more had"),
                      unfinished.message)
        XCTAssertEqual(unfinished.related, Array(4...13))

        // undeclared-scene: the launch declares 30 scenes, none of them the window's.
        let declared = "[" + (1...30).map { #"{"id":"s\#($0)","kind":"WindowGroup"}"# }.joined(separator: ",") + "]"
        let undeclared = try XCTUnwrap(replayFindings([launch(scenes: declared), open1].joined(separator: "\n")).first)
        XCTAssertEqual(undeclared.rule, .undeclaredScene)
        let firstScenes = firstSorted((1...30).map { "s\($0)" }).map { "\"\($0)\"" }.joined(separator: ", ")
        XCTAssertTrue(undeclared.message.contains("(it declares \(firstScenes) and 20 more)"), undeclared.message)

        // unsupported-scene: 30 Settings scenes on iOS.
        let settings = "[" + (1...30).map { #"{"id":"p\#($0)","kind":"Settings"}"# }.joined(separator: ",") + "]"
        let unsupported = try XCTUnwrap(replayFindings(launch(scenes: settings)).first)
        XCTAssertEqual(unsupported.rule, .unsupportedScene)
        XCTAssertEqual(count("Settings \"p", in: unsupported.message), bound, unsupported.message)
        XCTAssertTrue(unsupported.message.contains(#"Settings "p10" and 20 more, which"#), unsupported.message)
        XCTAssertEqual(unsupported.subject?.scenes, firstSorted((1...30).map { "p\($0)" }))

        // launch-crash-loop: two runs that die restoring 30 windows.
        var loop: [String] = []
        for run in 0..<2 {
            loop.append(launch("macOS", t: run * 1_000))
            for i in 1...30 { loop.append(#"{"event":"open","t":\#(run * 1_000 + 1),"window":"r\#(i)","scene":"main","restored":true}"#) }
        }
        loop.append(launch("macOS", t: 2_000))
        let crash = try XCTUnwrap(replayFindings(loop.joined(separator: "\n")).first { $0.rule == .launchCrashLoop })
        XCTAssertTrue(crash.message.contains("It was restoring windows r1 (scene main), r2 (scene main), r3 (scene main), r4 (scene main), r5 (scene main), r6 (scene main), r7 (scene main), r8 (scene main), r9 (scene main), r10 (scene main) and 20 more when it ended"),
                      crash.message)
    }

    // MARK: the bound itself

    func testFirstIsTheStartOfTheSortedListWithoutRepeats() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let items = (0..<Int.random(in: 0...60, using: &generator)).map { _ in Int.random(in: 0...40, using: &generator) }
            for count in [0, 1, 3, bound, 100] {
                XCTAssertEqual(FindingBound.first(count, of: items, by: <), Array(Array(Set(items)).sorted().prefix(count)), "\(items), \(count)")
            }
        }
    }

    func testMoreIsCountedWithThousandsSeparators() {
        XCTAssertEqual(FindingBound.grouped(0), "0")
        XCTAssertEqual(FindingBound.grouped(999), "999")
        XCTAssertEqual(FindingBound.grouped(4_990), "4,990")
        XCTAssertEqual(FindingBound.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(FindingBound.list(["a", "b", "c"], last: " and ") { $0 }, "a, b and c")
        XCTAssertEqual(FindingBound.list((1...12).map(String.init), last: " and ") { $0 }, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more")
    }
}
