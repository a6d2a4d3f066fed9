/// What a test runner records about the app it drives: the things the app
/// cannot record itself, because they end it or happen outside it.
///
/// A UI test terminates the app (XCUITest's `terminate()`), presses the home
/// button, relaunches it. The app's own recorder sees none of that, or dies
/// before it could write it, so replay would take a harness kill for a crash.
/// The runner records them here, into the same collector or trace:
///
/// - ``terminated(signal:)`` → a `kill` with reason `"harness"` and the app's
///   `process`, so `unclean-exit` does not fire for a kill the test asked for;
/// - ``launching()``, ``relaunching()``, ``activating()``,
///   ``pressedHome()`` and ``step(_:)`` → `mark`s, which change nothing in
///   replay and show on the timeline.
///
/// ```swift
/// let harness = HarnessRecorder(sink: collector, appProcess: "com.example.notes")
/// harness.launching()
/// app.launch()
/// app.terminate()
/// harness.terminated()
/// ```
///
/// With `LifecycleLogXCUITest`, `app.terminate(recordingTo: harness)` does
/// both. A harness records every event before the call returns
/// (``LifecycleRecorder/Durability/everyEvent`` when it makes the recorder), so a
/// test that ends right after still leaves them in the trace.
public final class HarnessRecorder: Sendable {
    /// Where the events go.
    public let recorder: LifecycleRecorder
    /// The process of the app under test, as the app records it (`nil`: the
    /// main app). Kills and marks name it.
    public let appProcess: String?
    /// Who records, written as a kill's `by` (for example `"xcuitest"`).
    public let runner: String

    /// A harness recording into `recorder`.
    ///
    /// - Parameters:
    ///   - recorder: where the events go; a recorder of its own, or the one
    ///     the runner already has.
    ///   - appProcess: the app's `process`; `nil` for the main app.
    ///   - runner: who records, for the kills' `by`.
    public init(recorder: LifecycleRecorder, appProcess: String? = nil, runner: String = "xcuitest") {
        self.recorder = recorder
        self.appProcess = appProcess
        self.runner = runner
    }

    /// A harness recording into `sink` (a collector stream, a spool file),
    /// committing every event before its call returns.
    ///
    /// - Parameters:
    ///   - sink: where the events go.
    ///   - appProcess: the app's `process`; `nil` for the main app.
    ///   - runner: who records, for the kills' `by`.
    public convenience init(sink: any RecordingSink, appProcess: String? = nil, runner: String = "xcuitest") {
        self.init(recorder: LifecycleRecorder(sink: sink, durability: .everyEvent), appProcess: appProcess, runner: runner)
    }

    /// The runner ended the app (`XCUIApplication.terminate()`, a `kill`):
    /// records `kill` with reason `"harness"` for the app's process. Call it
    /// once the app is gone.
    ///
    /// - Parameter signal: the signal sent, when the runner knows it.
    public func terminated(signal: Int? = nil) {
        recorder.kill(reason: "harness", signal: signal, by: runner, process: appProcess)
    }

    /// The runner is about to launch the app.
    public func launching() { mark("launch") }

    /// The runner is about to launch the app again, after ending it.
    public func relaunching() { mark("relaunch") }

    /// The runner is about to bring the app to the foreground (`activate()`).
    public func activating() { mark("activate") }

    /// The runner pressed the home button: the app goes to the background.
    public func pressedHome() { mark("home button") }

    /// A step of the test, in the runner's words.
    public func step(_ label: String) { mark(label) }

    /// Records `mark` `"<runner>: <label>"` for the app's process.
    private func mark(_ label: String) {
        recorder.record(.mark(label: "\(runner): \(label)"), process: appProcess)
    }
}
