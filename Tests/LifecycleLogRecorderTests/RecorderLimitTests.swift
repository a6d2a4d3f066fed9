import Testing
import LifecycleLogRecorder

/// A sink that always fails, as a full disk or an unreachable destination does.
private final class FailingSink: RecordingSink {
    var destination: String { "failing" }
    var lastTime: Double { 0 }
    func write(_ events: [Event]) throws { throw LifecycleLogError(.io, "failing: no space left") }
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
}
