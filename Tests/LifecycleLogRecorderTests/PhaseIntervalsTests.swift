import LifecycleLogRecorder
import Testing

/// Issue 21, item 10: the intervals Instruments shows for the recorded phases.
@Suite struct PhaseIntervalsTests {
    @Test func eachPhaseOfAWindowIsAnIntervalEndedByTheNextOrItsDismiss() {
        var intervals = PhaseIntervals()
        #expect(intervals.apply(.open(window: "w1", scene: "main")) == [])
        #expect(intervals.apply(.phase(.inactive, window: "w1")) == [.begin(subject: "w1", phase: .inactive)])
        #expect(intervals.apply(.phase(.active, window: "w1")) == [.end(subject: "w1", phase: .inactive), .begin(subject: "w1", phase: .active)])
        #expect(intervals.apply(.phase(.active, window: "w1")) == [], "the same phase again")
        #expect(intervals.apply(.phase(.active, window: nil)) == [.begin(subject: PhaseIntervals.app, phase: .active)])
        #expect(intervals.apply(.dismiss(window: "w1")) == [.end(subject: "w1", phase: .active)])
        #expect(intervals.apply(.dismiss(window: "w1")) == [])
        #expect(intervals.open == ["app": .active])
    }

    @Test func theEndOfARunEndsEveryInterval() {
        for end in [LifecycleEvent.Kind.terminate(reason: nil), .kill(reason: "user"), .delegate(callback: "willTerminate", window: nil),
                    .launch(LifecycleEvent.Launch(platform: .iOS, scenes: []))] {
            var intervals = PhaseIntervals()
            _ = intervals.apply(.phase(.background, window: "w2"))
            _ = intervals.apply(.phase(.active, window: "w1"))
            _ = intervals.apply(.phase(.inactive, window: nil))
            #expect(intervals.apply(end) == [
                .end(subject: "app", phase: .inactive), .end(subject: "w1", phase: .active), .end(subject: "w2", phase: .background),
            ])
            #expect(intervals.open.isEmpty)
        }
    }
}
