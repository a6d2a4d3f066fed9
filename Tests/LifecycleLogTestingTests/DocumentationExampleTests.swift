import LifecycleLog
import XCTest

/// The examples of the DocC articles, run as written, so that they stay true.
final class DocumentationExampleTests: XCTestCase {
    /// Getting Started: "Record a session" and "Replay it".
    func testGettingStartedRecordsASessionThatMissesABackgroundSave() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.lmdb")
        let recorder = try LifecycleRecorder(path: path)
        recorder.launch(platform: .iOS, scenes: [
            SceneDeclaration(id: "library", kind: .windowGroup),
            SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID"),
        ])
        recorder.open(window: "w1", scene: "library")
        recorder.phase(.active, window: "w1")
        recorder.write(key: "notes", scope: .shared, window: "w1")
        recorder.phase(.inactive, window: "w1")
        recorder.phase(.background, window: "w1")
        try recorder.close()

        let report = try Replayer.replay(path)
        let lines = report.text().split(separator: "\n")
        XCTAssertEqual(lines.count, 2, report.text())
        XCTAssertTrue(lines[0].hasPrefix("\(path): seq 6: error: [missed-background-save] Unsaved \"notes\" (shared) went to the background"), report.text())
        XCTAssertEqual(lines[1], "\(path): 6 events, 1 run: 1 error, 0 warnings")
    }

    /// Writing a Rule: "Check an app's own invariants".
    func testAnAppsOwnInvariantIsCheckedOnTheReplayedState() throws {
        let folder = TemporaryFolder()
        let path = try Session.trace("session.lmdb", in: folder) { recorder in
            recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "inspector", kind: .windowGroup)])
            recorder.open(window: "i1", scene: "inspector")
            recorder.open(window: "i2", scene: "inspector")
            recorder.dismiss(window: "i1")
            recorder.phase(.active, window: "i1")  // after its dismiss: unknown-window
        }
        var reducer = LifecycleReducer()
        var inspectors = 0
        try Replayer.forEachEvent(in: path) { seq, event in
            reducer.apply(seq: seq, event)
            inspectors = max(inspectors, reducer.state.windows.count { $0.scene == "inspector" })
            return true
        }
        reducer.finish()
        XCTAssertEqual(inspectors, 2)
        XCTAssertEqual(reducer.findings.map(\.rule), [.unknownWindow], "the built-in rules ran in the fold")
    }
}
