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

    /// The scan for what may need escaping looks at eight bytes at a time (issue 31: 6): it must
    /// miss nothing, wherever in a string (in a word or in the tail after the last word) a control,
    /// DEL or an invisible character stands. Checked against escaping every string, with no scan.
    func testVisibleTextsWordScanMissesNothingAnywhere() {
        let palette: [String] = ["a", "Z", " ", "~", "é", "日", "😀", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9F}",
                                 "\u{A0}", "\u{61C}", "\u{200B}", "\u{202E}", "\u{2069}", "\u{FEFF}", "\u{FFFE}", "\u{2013}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4000 {
            let length = Int.random(in: 0...40, using: &generator)
            // Mostly printable ASCII, as messages are, with a rare other character anywhere.
            let text = (0..<length).map { _ in
                Int.random(in: 0..<8, using: &generator) == 0 ? palette.randomElement(using: &generator)! : String(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
            }.joined()
            let expected = text.unicodeScalars.contains(where: VisibleText.needsEscape) ? VisibleText.escape(text) { _ in nil } : text
            XCTAssertEqual(VisibleText.escape(text), expected, "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }

    func testVisibleTextKeepsLettersAndEscapesControls() {
        XCTAssertEqual(VisibleText.escape("fenêtre 日本 😀"), "fenêtre 日本 😀")
        XCTAssertEqual(VisibleText.escape("a\u{1B}b\u{7}\u{9B}\u{7F}\n\t\u{2028}"), #"a\u{1B}b\u{7}\u{9B}\u{7F}\u{A}\u{9}\u{2028}"#)
    }
}
