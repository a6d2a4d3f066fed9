import XCTest
@testable import LifecycleLogRules

/// Output for CI and editors (issue 13), in the rules module: `LineMap` (a JSON Lines finding's file
/// line) and `VisibleText` (trace strings escaped for a terminal). (The outputs themselves:
/// LifecycleLogTests' `CIOutputTests`.)
final class CIOutputTests: XCTestCase {
    func testTheLineMapKeepsOnlyMarksThatPendingFindingsNeed() {
        var map = LineMap()
        // The offset changes at every event: the worst case.
        for seq in UInt64(1)...100_000 {
            map.note(seq: seq, line: Int(seq) * 2)
            if map.needsPruning { map.forget(below: seq) }
        }
        XCTAssertLessThanOrEqual(map.markCount, 64)
        XCTAssertEqual(map.line(of: 100_000), 200_000)
        XCTAssertEqual(map.line(of: 99_990), 199_980)
        // A finding still pending far back keeps its mark.
        var pending = LineMap()
        pending.note(seq: 1, line: 3)
        for seq in UInt64(2)...10_000 {
            pending.note(seq: seq, line: Int(seq) + 2 + Int(seq % 2))
            if pending.needsPruning { pending.forget(below: 1) }
        }
        XCTAssertEqual(pending.line(of: 1), 3)
        XCTAssertEqual(pending.line(of: 9_999), 9_999 + 3)
    }

    func testVisibleTextKeepsLettersAndEscapesControls() {
        XCTAssertEqual(VisibleText.escape("fenêtre 日本 😀"), "fenêtre 日本 😀")
        XCTAssertEqual(VisibleText.escape("a\u{1B}b\u{7}\u{9B}\u{7F}\n\t\u{2028}"), #"a\u{1B}b\u{7}\u{9B}\u{7F}\u{A}\u{9}\u{2028}"#)
    }
}
