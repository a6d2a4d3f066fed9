import LifecycleLog
import LifecycleLogTesting
import Testing

/// The assertions over every kind of session an app's tests have: a recorder with a `MemorySink`
/// or a `SpoolSink` (no liblmdb needed, as in the iOS simulator), and events in memory; each
/// exhaustive and not.
@Suite struct AnySessionAssertionTests {
    private static func memoryRecorder() -> (LifecycleRecorder, MemorySink) {
        let sink = MemorySink()
        return (LifecycleRecorder(sink: sink, clock: Session.steppingClock()), sink)
    }

    @Test func aMemorySinkRecorderPassesWhenCleanAndFailsWithTheDiff() throws {
        let (clean, _) = Self.memoryRecorder()
        Session.recordClean(into: clean)
        assertNoFindings(in: .recorder(clean))

        let (buggy, _) = Self.memoryRecorder()
        Session.recordTwoBugs(into: buggy)
        let line = #line + 2
        withKnownIssue {
            assertNoFindings(in: .recorder(buggy))
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["""
                memory: expected no lifecycle findings, but replay found 2 (actual +):
                + seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
                + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
                To see them on a timeline: write the events to a .jsonl file (LifecycleEvent.jsonLine) and run replay report FILE -o timeline.html
                """] && issue.sourceLocation?.line == line
        }
        assertFindings(in: .recorder(buggy), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
    }

    @Test func aMemorySinkRecorderCanBeAssertedAfterItWasClosed() throws {
        let (recorder, sink) = Self.memoryRecorder()
        Session.recordTwoBugs(into: recorder)
        try recorder.close()
        #expect(sink.events.count == 7)
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
    }

    @Test func aSpoolSinkRecorderIsReplayedFromItsFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("spool.jsonl")
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path), clock: Session.steppingClock())
        Session.recordTwoBugs(into: recorder)
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
        withKnownIssue {
            assertNoFindings(in: .recorder(recorder))
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.hasPrefix("\(path): expected no lifecycle findings, but replay found 2 (actual +):\n") == true
        }
        try recorder.close()
        // The spool file is a trace of its own, for `inTrace:` as for `replay`.
        assertFindings(in: .trace(path), [ExpectedFinding(.unsavedAtExit, at: 7)], exhaustivity: .off)
    }

    @Test func eventsInMemoryAreReplayedAsTheyAre() throws {
        let (recorder, sink) = Self.memoryRecorder()
        Session.recordTwoBugs(into: recorder)
        try recorder.close()
        let events = sink.events
        assertFindings(in: .events(events), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
        assertNoFindings(in: .events(Array(events.prefix(4))))  // before the dismiss: nothing yet, and no end of run seen
        withKnownIssue {
            assertFindings(in: .events(events), [ExpectedFinding(.unsavedDismiss, at: 5)])
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["""
                events: the lifecycle findings differ from those expected (expected −, actual +):
                  seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
                + seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
                To see them on a timeline: write the events to a .jsonl file (LifecycleEvent.jsonLine) and run replay report FILE -o timeline.html
                """]
        }
    }

    @Test func aNonExhaustiveAssertionChecksOnlyTheFindingsNamed() throws {
        let (recorder, sink) = Self.memoryRecorder()
        Session.recordTwoBugs(into: recorder)
        try recorder.close()
        // Passes: the unsaved-at-exit at seq 7 is not named, and not asserted.
        assertFindings(in: .events(sink.events), [ExpectedFinding(.unsavedDismiss, at: 5)], exhaustivity: .off)
        assertFindings(in: .recorder(recorder), [ExpectedFinding(.unsavedDismiss, at: 5)], exhaustivity: .off)
        // Fails: a named finding is missing; the others are listed as context, marked ·.
        withKnownIssue {
            assertFindings(in: .events(sink.events), [ExpectedFinding(.lostUpdate, at: 6)], exhaustivity: .off)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["""
                events: the lifecycle findings differ from those expected (expected −, actual +; non-exhaustive: 2 not asserted, marked ·):
                · seq 5 [unsaved-dismiss] error: \(Session.unsavedDismissMessage) (related: 4)
                − seq 6 [lost-update]
                · seq 7 [unsaved-at-exit] error: \(Session.unsavedAtExitMessage) (related: 6)
                To see them on a timeline: write the events to a .jsonl file (LifecycleEvent.jsonLine) and run replay report FILE -o timeline.html
                """]
        }
        // Expecting nothing non-exhaustively asserts nothing; exhaustively it fails.
        assertFindings(in: .events(sink.events), [], exhaustivity: .off)
        withKnownIssue { assertFindings(in: .events(sink.events), [], exhaustivity: .on) }
    }

    @Test func aCollectorSinkRecorderSaysWhereItsEventsAre() throws {
        let recorder = LifecycleRecorder(sink: CollectorSink(host: "127.0.0.1", port: 9, token: "t", fallback: nil))
        withKnownIssue {
            assertNoFindings(in: .recorder(recorder))
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.contains("a CollectorSink's events are on the collector, not here") == true
        }
        try? recorder.close()
    }
}

/// The assertions over a live check: what it found so far, as a test issue at the call.
@Suite struct LiveCheckAssertionTests {
    @Test func aLiveChecksFindingsAreAssertedAtTheCall() throws {
        let live = try LiveCheck(forwardingTo: MemorySink())
        let recorder = LifecycleRecorder(sink: live, clock: Session.steppingClock())
        Session.recordClean(into: recorder)
        try recorder.flush()
        assertNoFindings(in: .live(live))
        let buggy = try LiveCheck()
        let buggyRecorder = LifecycleRecorder(sink: buggy, clock: Session.steppingClock())
        Session.recordTwoBugs(into: buggyRecorder)
        try buggyRecorder.close()  // finish(): every finding decided
        assertFindings(in: .live(buggy), [ExpectedFinding(.unsavedDismiss, at: 5), ExpectedFinding(.unsavedAtExit, at: 7)])
        withKnownIssue {
            assertNoFindings(in: .live(buggy))
        } matching: { issue in
            issue.comments.map(\.rawValue).first?.hasPrefix("live check: expected no lifecycle findings, but replay found 2 (actual +):\n+ seq 5 [unsaved-dismiss]") == true
        }
    }

    @Test func aLiveCheckRunsItsOwnRulesAndSaysSoWhenGivenOthers() throws {
        let live = try LiveCheck()
        let recorder = LifecycleRecorder(sink: live, clock: Session.steppingClock())
        Session.recordClean(into: recorder)
        try recorder.close()
        var configuration = RuleConfiguration()
        configuration.severities[.unsavedAtExit] = .some(nil)
        withKnownIssue {
            assertNoFindings(in: .live(live), configuration: configuration)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["live check: a live check runs its own rules (the configuration and appRules it was made with): assert over it without configuration: or customRules:"]
        }
    }
}
