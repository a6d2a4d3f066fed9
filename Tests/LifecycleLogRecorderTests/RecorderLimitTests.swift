import Testing
import LifecycleLogRecorder

/// A sink that always fails, as a full disk or an unreachable destination does.
/// A sink that fails until told otherwise, as a destination that comes back does.
private final class RecoveringSink: RecordingSink, @unchecked Sendable {
    // @unchecked: the recorder calls a sink under its writer lock only; the test flips
    // `failing` between calls, never during one.
    var failing = true
    var written: [LifecycleEvent] = []
    var destination: String { "recovering" }
    var lastTime: Double { 0 }
    func write(_ events: [LifecycleEvent]) throws {
        if failing { throw LifecycleLogError(.io, "recovering: unreachable") }
        written += events
    }
    func close() {}
}

private final class FailingSink: RecordingSink {
    var destination: String { "failing" }
    var lastTime: Double { 0 }
    func write(_ events: [LifecycleEvent]) throws { throw LifecycleLogError(.io, "failing: no space left") }
    func close() {}
}

@Suite struct RecorderLimitTests {
    @Test func eventsWaitingForAFailingSinkAreBoundedAndTheDroppedOnesCounted() {
        let recorder = LifecycleRecorder(sink: FailingSink(), durability: .batched(maxDelayMilliseconds: 600_000, maxEvents: 1_000_000),
                                         maxPendingEvents: 10)
        for i in 0..<25 { recorder.mark("\(i)") }
        #expect(recorder.droppedEventCount == 15)
        #expect((try? recorder.flush()) == nil)  // the sink fails; nothing thrown into record calls
        let message = recorder.lastError?.message ?? ""
        #expect(message.contains("15 events dropped after 10 waited in memory"), "\(message)")
        #expect(message.contains("no space left"), "\(message)")
    }

    @Test func afterTheFirstDroppedEventTheRecordingEndsEvenWhenTheSinkRecovers() throws {
        let sink = RecoveringSink()
        let recorder = LifecycleRecorder(sink: sink, durability: .batched(maxDelayMilliseconds: 600_000, maxEvents: 1_000_000),
                                         clock: { 0 }, maxPendingEvents: 3)
        for i in 0..<5 { recorder.mark("\(i)") }  // 0, 1, 2 wait; 3 and 4 are dropped
        sink.failing = false
        try recorder.flush()  // the three waiting ones reach the sink
        for i in 5..<8 { recorder.mark("\(i)") }  // not recorded: that would leave a gap after 2
        try recorder.flush()
        #expect(sink.written.map(\.kind) == [.mark(label: "0"), .mark(label: "1"), .mark(label: "2")])
        #expect(recorder.droppedEventCount == 5)
        #expect(recorder.lastError?.message.contains("5 events dropped after 3 waited in memory; the recording ends there") == true,
                "\(String(describing: recorder.lastError))")
    }
}
