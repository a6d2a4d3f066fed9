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
    ///
    /// Also makes each contradiction of an assumption the recorder makes about Apple's callbacks
    /// (spec/apple-order.md: a scene connecting right after the launch sequence ended with none) a
    /// runtime warning, routed as ``RuntimeIssueReporter`` routes a warning: never a test failure.
    public static func reportMisusesAsRuntimeIssues() {
        onMisuse { error in reportIssue(error.description) }
        SceneRecorder.assumptionReporter.withLock {
            $0 = { message in
                if case .issue(let severity) = RuntimeIssueReporter.route(.warning, in: TestContext.current) {
                    reportIssue(message, severity: severity)
                }  // else logged only (the unified log has it already): XCTest has no warnings
            }
        }
    }
}
