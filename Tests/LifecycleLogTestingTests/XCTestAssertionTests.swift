import LifecycleLog
@testable import LifecycleLogTesting
import XCTest

/// The assertions on real trace files, and their failures as XCTest sees them.
final class XCTestAssertionTests: XCTestCase {
    func testACleanTracePassesAndATraceWithFindingsFailsWithTheDiff() throws {
        let folder = TemporaryFolder()
        let clean = try Session.trace("clean.lmdb", in: folder, Session.recordClean)
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)

        XCTAssertNil(failureMessage(trace: clean, expected: [], configuration: RuleConfiguration()))
        assertNoFindings(in: .trace(clean))  // must not fail this test

        XCTAssertEqual(failureMessage(trace: buggy, expected: [], configuration: RuleConfiguration()), """
            \(buggy): expected no lifecycle findings, but replay found 2 (actual +):
            + seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
            + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
            To see them on a timeline: replay report \(buggy) -o timeline.html
            """)
    }

    func testAnAppsOwnRulesFindingsAreAssertedLikeTheCatalogues() throws {
        /// Shared state is written only from a window.
        struct SharedWritesComeFromWindows: LifecycleRule {
            let id = "shared-writes-from-windows"
            mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
                guard case .keyWritten(let key, .shared, nil, _, _) = transition else { return }
                context.report("The app wrote \(key) outside any window.")
            }
        }
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        let all = [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.custom("shared-writes-from-windows"), at: 6, severity: .error),
                   ExpectedFinding(.unsavedAtExit, at: 7)]

        XCTAssertNil(failureMessage(trace: buggy, expected: all, configuration: RuleConfiguration(), customRules: [SharedWritesComeFromWindows()]))
        assertFindings(in: .trace(buggy), all, customRules: [SharedWritesComeFromWindows()])  // must not fail this test
        XCTAssertEqual(failureMessage(trace: buggy, expected: Array(all.dropFirst()), configuration: RuleConfiguration(),
                                      customRules: [SharedWritesComeFromWindows()])?.contains("+ seq 5 [unsaved-dismiss]"), true)
        XCTAssertEqual(failureMessage(trace: buggy, expected: all, configuration: RuleConfiguration())?.contains("− seq 6 [shared-writes-from-windows]"), true)
    }

    func testExactFindingsPassWhenTheyAreExactlyThoseFoundAndFailOtherwise() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        let both = [ExpectedFinding(.unsavedAtExit, at: 7), ExpectedFinding(.unsavedDismiss, at: 5, severity: .error)]

        XCTAssertNil(failureMessage(trace: buggy, expected: both, configuration: RuleConfiguration()))
        assertFindings(in: .trace(buggy), both)  // must not fail this test

        XCTAssertEqual(failureMessage(trace: buggy, expected: [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.lostUpdate, at: 6)],
                                      configuration: RuleConfiguration()), """
            \(buggy): the lifecycle findings differ from those expected (expected −, actual +):
              seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
            − seq 6 [lost-update]
            + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
            To see them on a timeline: replay report \(buggy) -o timeline.html
            """)
    }

    func testTheConfigurationDecidesWhatCounts() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        var configuration = RuleConfiguration()
        configuration.severities[.unsavedAtExit] = .some(nil)  // off
        XCTAssertNil(failureMessage(trace: buggy, expected: [ExpectedFinding(.unsavedDismiss, at: 5)], configuration: configuration))
        configuration.severities[.unsavedDismiss] = .warning
        XCTAssertNotNil(failureMessage(trace: buggy, expected: [ExpectedFinding(.unsavedDismiss, at: 5, severity: .error)], configuration: configuration))
    }

    func testARecorderIsFlushedBeforeTheReplayAndStaysOpen() throws {
        let folder = TemporaryFolder()
        let path = folder.file("recorded.lmdb")
        // Batches that would never commit by themselves during the test.
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 600_000, maxEvents: 1_000_000),
                                             clock: Session.steppingClock())
        recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "note", kind: .windowGroup)])
        recorder.open(window: "n1", scene: "note")
        recorder.phase(.active, window: "n1")
        recorder.write(key: "draft", scope: .scene, window: "n1")
        recorder.dismiss(window: "n1")
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5)])
        recorder.write(key: "notes", scope: .shared)
        recorder.terminate()
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
        try recorder.close()
    }

    func testATraceThatCannotBeReplayedFailsSayingWhy() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("missing.lmdb")
        let message = try XCTUnwrap(failureMessage(trace: missing, expected: [], configuration: RuleConfiguration()))
        XCTAssertTrue(message.hasPrefix("\(missing): could not replay the session: "), message)
        XCTAssertTrue(message.contains(missing), message)
    }

    func testTheTraceFileIsReadWholeForItsAttachmentUnlessItIsTooLarge() throws {
        let folder = TemporaryFolder()
        let path = try Session.trace("clean.lmdb", in: folder, Session.recordClean)
        let bytes = try XCTUnwrap(TraceAttachments.contents(of: path, limit: TraceAttachments.maxTraceBytes))
        XCTAssertEqual(bytes, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(TraceAttachments.contents(of: path, limit: bytes.count, chunkSize: 1000), bytes, "read in many chunks, the last one short")
        XCTAssertEqual(TraceAttachments.contents(of: path, limit: bytes.count, chunkSize: 4096), bytes, "read in whole chunks")
        XCTAssertNil(TraceAttachments.contents(of: path, limit: bytes.count - 1))
        XCTAssertNil(TraceAttachments.contents(of: folder.file("missing.lmdb"), limit: 1 << 20))
    }
}

#if !canImport(ObjectiveC)
/// In XCTest, a failed assertion is an XCTest failure at the assertion's line
/// (swift-corelibs-xctest: captured by overriding `recordFailure`).
final class XCTestFailureReportingTests: XCTestCase {
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAFailedAssertionIsAnXCTestFailureAtTheCallWithTheDiff() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        let clean = try Session.trace("clean.lmdb", in: folder, Session.recordClean)
        capturing = true
        assertNoFindings(in: .trace(clean))
        assertNoFindings(in: .trace(buggy)); let line = #line
        assertFindings(in: .trace(buggy), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
        capturing = false

        XCTAssertEqual(captured.count, 1, "\(captured)")
        let failure = try XCTUnwrap(captured.first)
        XCTAssertEqual(failure.file, #filePath)
        XCTAssertEqual(failure.line, line)
        XCTAssertTrue(failure.description.contains("+ seq 5 [unsaved-dismiss] error: "), failure.description)
        XCTAssertTrue(failure.description.contains("+ seq 7 [unsaved-at-exit] error: "), failure.description)
        // XCTest has no attachments here: the timeline is written beside the trace and named.
        XCTAssertTrue(failure.description.contains("The timeline of this trace, written for this failure: \(buggy).timeline.html"), failure.description)
        let page = try String(contentsOfFile: buggy + ".timeline.html", encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>") && page.contains("unsaved-dismiss"), String(page.prefix(200)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: clean + ".timeline.html"), "a passing assertion writes nothing")
    }

    /// The eight assertions before `RecordedSession` still compile (with a deprecation warning, hence
    /// the attribute here) and forward to the new two: a pass passes, a failure is the same failure,
    /// at the old call's line.
    @available(*, deprecated)
    func testTheDeprecatedAssertionsForwardToTheNewOnes() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        let clean = try Session.trace("clean.lmdb", in: folder, Session.recordClean)
        let both = [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)]
        let sink = MemorySink()
        let recorder = LifecycleRecorder(sink: sink, clock: Session.steppingClock())
        Session.recordTwoBugs(into: recorder)
        let live = try LiveCheck()
        let liveRecorder = LifecycleRecorder(sink: live, clock: Session.steppingClock())
        Session.recordTwoBugs(into: liveRecorder)
        try liveRecorder.close()

        capturing = true
        assertNoFindings(inTrace: clean)
        assertFindings(inTrace: buggy, both)
        assertFindings(in: recorder, both)
        assertFindings(in: sink.events, both)
        assertFindings(in: live, both)
        assertFindings(in: sink.events, [both[0]], exhaustivity: .off)
        XCTAssertEqual(captured.count, 0, "\(captured)")
        assertNoFindings(inTrace: buggy); let traceLine = #line
        assertNoFindings(in: recorder); let recorderLine = #line
        assertNoFindings(in: sink.events); let eventsLine = #line
        assertNoFindings(in: live); let liveLine = #line
        assertFindings(inTrace: buggy, [both[0]]); let findingsLine = #line
        capturing = false
        try recorder.close()

        XCTAssertEqual(captured.map(\.line), [traceLine, recorderLine, eventsLine, liveLine, findingsLine], "\(captured)")
        XCTAssertEqual(Set(captured.map(\.file)), [#filePath])
        // The failure is the assertion's message, exactly (swift-corelibs-xctest puts "failed - " before it).
        let messages = captured.map { $0.description.hasPrefix("failed - ") ? String($0.description.dropFirst(9)) : $0.description }
        XCTAssertEqual(messages[0], try XCTUnwrap(failureMessage(trace: buggy, expected: [], configuration: RuleConfiguration()))
                       + "\nThe timeline of this trace, written for this failure: \(buggy).timeline.html (open it in a browser)")
        XCTAssertEqual(messages[1], failureMessage(.events(sink.events), expected: [], configuration: RuleConfiguration())?
            .replacingOccurrences(of: "events: ", with: "memory: "))
        XCTAssertEqual(messages[2], failureMessage(.events(sink.events), expected: [], configuration: RuleConfiguration()))
        XCTAssertTrue(messages[3].hasPrefix("live check: expected no lifecycle findings, but replay found 2 (actual +):\n"), messages[3])
        XCTAssertTrue(messages[4].hasPrefix("\(buggy): the lifecycle findings differ from those expected"), messages[4])
        XCTAssertFalse(messages.contains { $0.contains("host application") }, "swift-issue-reporting's app-host warning, false on Linux")
    }
}
#endif
