import LifecycleLogRules
import Logging

extension LiveCheck {
    /// The reporters a debug build wants: Xcode runtime issues in a DEBUG build (test failures in
    /// an XCTest test), the system log otherwise, and `logger` when the app passes one.
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
