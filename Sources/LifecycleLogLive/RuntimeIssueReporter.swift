import IssueReporting
import LifecycleLogRules

/// Reports each live finding the way SwiftUI reports a misuse: through swift-issue-reporting's
/// `reportIssue`, which is a purple runtime warning in Xcode while a DEBUG build runs, a test
/// failure when an XCTest test is running, and nothing in a release build.
///
/// Errors are reported as issues, warnings as warnings (`IssueSeverity.warning`).
public struct RuntimeIssueReporter: LiveFindingReporter {
    /// A reporter.
    public init() {}

    /// Reports `finding` as a runtime issue.
    public func report(_ finding: Finding, message: String) {
        reportIssue(message, severity: finding.severity == .error ? .error : .warning)
    }
}
