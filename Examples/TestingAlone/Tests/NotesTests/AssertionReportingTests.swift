import LifecycleLogRecorder
import LifecycleLogTesting
import Testing
import XCTest

/// A note window dismissed with an unsaved draft: one `unsaved-dismiss` at seq 5.
private func recordUnsavedDismiss(into recorder: LifecycleRecorder) {
    recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "note", kind: .windowGroup)])
    recorder.open(window: "n1", scene: "note")
    recorder.phase(.active, window: "n1")
    recorder.write(key: "draft", scope: .scene, window: "n1")
    recorder.dismiss(window: "n1")
}

private let expectedPrefix = "memory: expected no lifecycle findings, but replay found 1 (actual +):\n+ seq 5 [unsaved-dismiss] error: "

/// In Swift Testing, a failed assertion is an issue of the running test, at the assertion.
@Test func aFailureIsASwiftTestingIssueAtTheCall() {
    let recorder = LifecycleRecorder(sink: MemorySink())
    recordUnsavedDismiss(into: recorder)
    let line = #line + 2
    withKnownIssue {
        assertNoFindings(in: .recorder(recorder))
    } matching: { issue in
        issue.comments.count == 1 && issue.comments[0].rawValue.hasPrefix(expectedPrefix)
            && issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
    }
    assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5)])
}

#if !canImport(ObjectiveC)
/// In XCTest, a failed assertion is an XCTest failure at the assertion (swift-corelibs-xctest:
/// captured by overriding `recordFailure`).
final class AssertionReportingTests: XCTestCase {
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAFailureIsAnXCTestFailureAtTheCall() {
        let recorder = LifecycleRecorder(sink: MemorySink())
        recordUnsavedDismiss(into: recorder)
        capturing = true
        assertNoFindings(in: .recorder(recorder)); let line = #line
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5)])
        capturing = false
        XCTAssertEqual(captured.map(\.line), [line], "\(captured)")
        XCTAssertEqual(captured.map(\.file), [#filePath])
        XCTAssertTrue(captured.first?.description.contains(expectedPrefix) == true, "\(captured)")
    }
}
#endif
