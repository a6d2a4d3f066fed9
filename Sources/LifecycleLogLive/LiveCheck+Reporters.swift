import LifecycleLogRules
import IssueReporting
import Logging

extension LiveCheck {
    /// The reporters a debug build wants: Xcode runtime issues in a DEBUG build (while a test runs:
    /// an error fails it, a warning does not; see ``RuntimeIssueReporter``), the system log
    /// otherwise, and `logger` when the app passes one.
    ///
    /// ```swift
    /// let live = try LiveCheck(forwardingTo: spool, reporters: LiveCheck.standardReporters())
    /// ```
    public static func standardReporters(logger: Logger? = nil) -> [any LiveFindingReporter] {
        var reporters: [any LiveFindingReporter] = []
        #if DEBUG
        reporters.append(RuntimeIssueReporter())
        #else
        reporters.append(SystemLogReporter())
        #endif
        if let logger { reporters.append(LoggerReporter(logger)) }
        return reporters
    }
}

extension LifecycleRecorder {
    /// Makes every call the recorder refuses as a misuse (an event that is not valid, such as a
    /// `scene` key written without its window) an Xcode runtime issue in a DEBUG build, and a test
    /// failure in an XCTest test, through swift-issue-reporting's `reportIssue`, besides
    /// `LifecycleRecorder.lastError` and the unified log. Call it once, early, in a debug build.
    public static func reportMisusesAsRuntimeIssues() {
        onMisuse { error in reportIssue(error.description) }
    }
}
