import LifecycleLog
import LifecycleLogTesting
import Testing

/// The assertions in Swift Testing: a failure is an issue recorded at the call,
/// whose comment is the diff.
@Suite struct SwiftTestingAssertionTests {
    @Test func aCleanTracePasses() throws {
        let folder = TemporaryFolder()
        let clean = try Session.trace("clean.lmdb", in: folder, Session.recordClean)
        assertNoFindings(in: .trace(clean))
        assertFindings(in: .trace(clean), [])
    }

    @Test func aTraceWithFindingsFailsWithTheDiffAtTheCall() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        let expected = """
            \(buggy): expected no lifecycle findings, but replay found 2 (actual +):
            + seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
            + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
            To see them on a timeline: replay report \(buggy) -o timeline.html
            """
        let line = #line + 2
        withKnownIssue {
            assertNoFindings(in: .trace(buggy))
        } matching: { issue in
            issue.comments.map(\.rawValue) == [expected] && issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test func exactFindingsPassWhenExactlyThoseAreFound() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        assertFindings(in: .trace(buggy), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
    }

    @Test func exactFindingsFailWhenOneIsMissingOrAnotherIsFound() throws {
        let folder = TemporaryFolder()
        let buggy = try Session.trace("buggy.lmdb", in: folder, Session.recordTwoBugs)
        withKnownIssue {
            assertFindings(in: .trace(buggy), [ExpectedFinding(.unsavedDismiss, at: 5)])
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["""
                \(buggy): the lifecycle findings differ from those expected (expected −, actual +):
                  seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
                + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
                To see them on a timeline: replay report \(buggy) -o timeline.html
                """]
        }
        withKnownIssue {
            assertFindings(in: .trace(buggy), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7),
                                            ExpectedFinding(.lostUpdate, at: 6)])
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.contains("\n− seq 6 [lost-update]\n") == true
        }
    }

    @Test func aRecorderIsAssertedOnWhatItHasRecordedSoFar() throws {
        let folder = TemporaryFolder()
        let recorder = try Session.recorder(folder.file("recorded.lmdb"))
        Session.recordClean(into: recorder)
        assertNoFindings(in: .recorder(recorder))
        recorder.write(key: "notes", scope: .shared)  // after terminate: event-before-launch
        withKnownIssue {
            assertNoFindings(in: .recorder(recorder))
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.contains("+ seq 8 [event-before-launch] error: ") == true
        }
        try recorder.close()
    }

    @Test func aTraceThatCannotBeReplayedFails() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("missing.lmdb")
        withKnownIssue {
            assertNoFindings(in: .trace(missing))
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.hasPrefix("\(missing): could not replay the session: ") == true
        }
    }
}
