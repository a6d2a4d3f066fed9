// Only where XCUIApplication exists. LIFECYCLELOG_GLUE_CHECK is set by
// scripts/check-swiftui-glue alone, which type-checks this file on Linux
// against a stand-in XCTest (Tests/SwiftUIStandIn/XCTest.swift).
#if canImport(XCTest) && (os(iOS) || os(macOS) || os(tvOS) || os(visionOS) || LIFECYCLELOG_GLUE_CHECK)
import LifecycleLogRecorder
import XCTest

extension XCUIApplication {
    /// Launches the app, with a `mark` first (``HarnessRecorder/launching()``).
    ///
    /// `launch()` ends an instance that is still running before it starts the
    /// new one; that end is recorded as the harness's `kill` first.
    public func launch(recordingTo harness: HarnessRecorder) {
        recordEndOfRunningInstance(harness)
        harness.launching()
        launch()
    }

    /// Launches the app again, with a `mark` first (``HarnessRecorder/relaunching()``);
    /// a running instance's end is recorded as a `kill`, as in
    /// ``launch(recordingTo:)``.
    public func relaunch(recordingTo harness: HarnessRecorder) {
        recordEndOfRunningInstance(harness)
        harness.relaunching()
        launch()
    }

    /// Records the `kill` of an instance that `launch()` is about to end.
    private func recordEndOfRunningInstance(_ harness: HarnessRecorder) {
        if state != .notRunning && state != .unknown { harness.terminated() }
    }

    /// Brings the app to the foreground, with a `mark` first
    /// (``HarnessRecorder/activating()``).
    public func activate(recordingTo harness: HarnessRecorder) {
        harness.activating()
        activate()
    }

    /// Terminates the app and then records the `kill` (reason `"harness"`),
    /// so that replay does not take the end for a crash
    /// (``HarnessRecorder/terminated(signal:)``).
    public func terminate(recordingTo harness: HarnessRecorder) {
        terminate()
        harness.terminated()
    }
}

#if os(iOS) || LIFECYCLELOG_GLUE_CHECK
extension XCUIDevice {
    /// Presses the home button and records a `mark` (``HarnessRecorder/pressedHome()``).
    public func pressHome(recordingTo harness: HarnessRecorder) {
        press(.home)
        harness.pressedHome()
    }
}
#endif
#endif
