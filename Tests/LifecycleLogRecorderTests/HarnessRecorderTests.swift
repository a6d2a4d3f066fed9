import LifecycleLogRecorder
import Testing

/// What a UI-test runner records: kills with reason "harness" for the app's
/// process, and marks for what it does to the app.
@Suite struct HarnessRecorderTests {
    @Test func terminatedIsAHarnessKillOfTheAppsProcess() {
        let sink = MemorySink()
        let harness = HarnessRecorder(sink: sink, appProcess: "com.example.notes", runner: "xcuitest")
        harness.terminated()
        harness.terminated(signal: 9)
        #expect(sink.events.map(\.kind) == [
            .kill(reason: "harness", signal: nil, by: "xcuitest"),
            .kill(reason: "harness", signal: 9, by: "xcuitest"),
        ])
        #expect(sink.events.map(\.process) == ["com.example.notes", "com.example.notes"])
    }

    @Test func actionsAreMarksNamingTheRunner() {
        let sink = MemorySink()
        let harness = HarnessRecorder(sink: sink)
        harness.launching()
        harness.pressedHome()
        harness.activating()
        harness.relaunching()
        harness.step("type a draft")
        #expect(sink.events.map(\.kind) == [
            .mark(label: "xcuitest: launch"),
            .mark(label: "xcuitest: home button"),
            .mark(label: "xcuitest: activate"),
            .mark(label: "xcuitest: relaunch"),
            .mark(label: "xcuitest: type a draft"),
        ])
        #expect(sink.events.allSatisfy { $0.process == nil })  // the main app
    }

    @Test func everyEventIsWrittenBeforeTheCallReturns() {
        // A harness made from a sink commits each event: a test may end right after.
        let sink = MemorySink()
        let harness = HarnessRecorder(sink: sink)
        harness.terminated()
        #expect(sink.events.count == 1)
    }

    @Test func aKillLineIsAValidVersion2Event() {
        let sink = MemorySink()
        HarnessRecorder(sink: sink, appProcess: "com.example.notes", runner: "ci").terminated(signal: 9)
        let line = sink.events[0].jsonLine
        #expect(line.contains(#""event":"kill""#))
        #expect(line.contains(#""reason":"harness""#))
        #expect(line.contains(#""by":"ci""#))
        #expect(line.contains(#""process":"com.example.notes""#))
    }
}
