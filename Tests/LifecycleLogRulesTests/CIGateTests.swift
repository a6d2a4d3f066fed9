import XCTest
@testable import LifecycleLogRules

/// CI gates that must not pass when they should fail (issue 22), in the rules module: what
/// `VisibleText` escapes in the text of a finding. (The gates: LifecycleLogTests' `CIGateTests`.)
final class CIGateTests: XCTestCase {
    func testVisibleTextEscapesZeroWidthAndBidiControls() {
        XCTAssertEqual(VisibleText.escape("a\u{200B}b\u{202E}c\u{FEFF}d\u{2066}e\u{61C}"), #"a\u{200B}b\u{202E}c\u{FEFF}d\u{2066}e\u{61C}"#)
        XCTAssertEqual(VisibleText.escape("fenêtre 日本 😀 ‘quoted’ – dash"), "fenêtre 日本 😀 ‘quoted’ – dash")
    }
}
