import LifecycleLog
import LifecycleLogTesting
import XCTest

/// The pure core of the assertions: which findings differ, and how the difference reads.
final class FindingsDifferenceTests: XCTestCase {
    private let lost = Finding(rule: .lostUpdate, severity: .error, seq: 8, related: [6, 7], message: "w2 overwrote w1's change.")
    private let skip = Finding(rule: .phaseSkip, severity: .warning, seq: 8, related: [], message: "w1 skipped inactive.")
    private let missed = Finding(rule: .missedBackgroundSave, severity: .error, seq: 12, related: [8], message: "Unsaved notes went to the background.")

    func testNoDifferenceWhenEveryExpectedFindingIsFoundInAnyOrder() {
        XCTAssertNil(FindingsDifference(trace: "t.lmdb", actual: [], expected: []))
        XCTAssertNil(FindingsDifference(trace: "t.lmdb", actual: [missed, lost, skip], expected: [
            ExpectedFinding(.missedBackgroundSave, at: 12),
            ExpectedFinding(.phaseSkip, at: 8, severity: .warning),
            ExpectedFinding(.lostUpdate, at: 8, message: "w2 overwrote w1's change."),
        ]))
    }

    func testFindingsWhenNoneWereExpectedAreEachMarkedPlusInReportOrder() throws {
        let difference = try XCTUnwrap(FindingsDifference(trace: "t.lmdb", actual: [missed, skip, lost], expected: []))
        XCTAssertEqual(difference.lines, [.unexpected(lost), .unexpected(skip), .unexpected(missed)])
        XCTAssertEqual(difference.description, """
            t.lmdb: expected no lifecycle findings, but replay found 3 (actual +):
            + seq 8 [lost-update] error: w2 overwrote w1's change. (related: 6, 7)
            + seq 8 [phase-skip] warning: w1 skipped inactive.
            + seq 12 [missed-background-save] error: Unsaved notes went to the background. (related: 8)
            To see them on a timeline: replay report t.lmdb -o timeline.html
            """)
    }

    func testAMixedDifferenceShowsFoundOnesAsContextMissingOnesMinusAndUnexpectedOnesPlus() throws {
        let difference = try XCTUnwrap(FindingsDifference(trace: "t.lmdb", actual: [lost, missed], expected: [
            ExpectedFinding(.unsavedDismiss, at: 10),
            ExpectedFinding(.lostUpdate, at: 8),
        ]))
        XCTAssertEqual(difference.description, """
            t.lmdb: the lifecycle findings differ from those expected (expected −, actual +):
              seq 8 [lost-update] error: w2 overwrote w1's change. (related: 6, 7)
            − seq 10 [unsaved-dismiss]
            + seq 12 [missed-background-save] error: Unsaved notes went to the background. (related: 8)
            To see them on a timeline: replay report t.lmdb -o timeline.html
            """)
    }

    func testAFindingWithAnotherSeverityOrMessageIsShownAsExpectedMinusThenActualPlus() throws {
        let difference = try XCTUnwrap(FindingsDifference(trace: "t.lmdb", actual: [lost, skip], expected: [
            ExpectedFinding(.lostUpdate, at: 8, message: "something else"),
            ExpectedFinding(.phaseSkip, at: 8, severity: .error),
        ]))
        XCTAssertEqual(difference.lines, [
            .missing(ExpectedFinding(.lostUpdate, at: 8, message: "something else")), .unexpected(lost),
            .missing(ExpectedFinding(.phaseSkip, at: 8, severity: .error)), .unexpected(skip),
        ])
        XCTAssertEqual(difference.description.split(separator: "\n").dropFirst().prefix(4), [
            "− seq 8 [lost-update]: something else",
            "+ seq 8 [lost-update] error: w2 overwrote w1's change. (related: 6, 7)",
            "− seq 8 [phase-skip] error",
            "+ seq 8 [phase-skip] warning: w1 skipped inactive.",
        ])
    }

    func testTheSameRuleAtAnotherSeqDoesNotMatch() throws {
        let difference = try XCTUnwrap(FindingsDifference(trace: "t.lmdb", actual: [missed], expected: [
            ExpectedFinding(.missedBackgroundSave, at: 11),
        ]))
        XCTAssertEqual(difference.lines, [.missing(ExpectedFinding(.missedBackgroundSave, at: 11)), .unexpected(missed)])
    }

    func testAnExpectationListedTwiceMatchesOneFindingOnce() throws {
        let twice = ExpectedFinding(.lostUpdate, at: 8)
        let difference = try XCTUnwrap(FindingsDifference(trace: "t.lmdb", actual: [lost], expected: [twice, twice]))
        XCTAssertEqual(difference.lines, [.matched(lost), .missing(twice)])
    }
}
