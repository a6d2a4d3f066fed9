import IssueReporting
import LifecycleLogRules

/// Reports each live finding the way SwiftUI reports a misuse: through swift-issue-reporting's
/// `reportIssue`, which is a purple runtime warning in Xcode while a DEBUG build runs, and nothing
/// in a release build.
///
/// While a test runs, an error is a test issue and a warning never fails the test:
///
/// | finding | app run (no test) | Swift Testing test | XCTest test (app-hosted too) |
/// | --- | --- | --- | --- |
/// | error | runtime issue | issue (the test fails) | `XCTFail` (the test fails) |
/// | warning | runtime warning | warning issue (Swift 6.3+; the test passes) | logged, not a failure |
///
/// XCTest has no warnings: swift-issue-reporting turns every `reportIssue` into an `XCTFail`,
/// whatever its severity, so a warning found while an XCTest test runs (an app-hosted test run
/// included) goes to the system log instead (``SystemLogReporter``: `os.Logger`, subsystem
/// `LifecycleLog`, category `live-check`, on Apple platforms; standard error elsewhere). In Swift
/// Testing it is recorded with `IssueSeverity.warning`, which Swift Testing shows as a warning;
/// built with a compiler older than Swift 6.3, whose Swift Testing has no warnings, it is logged
/// as in XCTest.
///
/// Swift Testing finds its test from the test's own task: a finding reported from elsewhere (the
/// live check's own queue) is taken for XCTest's, so a warning is logged and an error is an
/// `XCTFail`. To make a live check's findings issues of a Swift Testing test, assert on it from
/// the test: `assertNoFindings(in: .live(live))` (`LifecycleLogTesting`).
public struct RuntimeIssueReporter: LiveFindingReporter {
    /// Where a warning goes when reporting it as an issue would fail the running test.
    let warningLog: any LiveFindingReporter

    /// A reporter.
    public init() { self.init(warningLog: SystemLogReporter()) }

    /// A reporter whose warnings found during an XCTest test go to `warningLog` (for tests).
    init(warningLog: any LiveFindingReporter) { self.warningLog = warningLog }

    /// Reports `finding` as a runtime issue, or logs a warning that would fail the running test.
    public func report(_ finding: Finding, message: String) {
        switch Self.route(finding.severity, in: TestContext.current) {
        case .issue(let severity): reportIssue(message, severity: severity)
        case .log: warningLog.report(finding, message: message)
        }
    }

    /// What becomes of a finding.
    enum Route: Equatable {
        /// `reportIssue` with this severity.
        case issue(IssueSeverity)
        /// The warning log: an issue would be a test failure.
        case log
    }

    /// What becomes of a finding of `severity` in `context` (`TestContext.current`: `nil` when no
    /// test is running).
    static func route(_ severity: Severity, in context: TestContext?) -> Route {
        guard severity == .warning else { return .issue(.error) }
        switch context {
        case nil:
            return .issue(.warning)  // a purple runtime warning in Xcode
        case .xcTest?:
            return .log  // reportIssue would be an XCTFail
        case .swiftTesting?:
            #if compiler(>=6.3)
            return .issue(.warning)  // Issue.record(severity: .warning): shown, not a failure
            #else
            return .log  // swift-issue-reporting records every issue as an error before Swift 6.3
            #endif
        @unknown default:
            return .log
        }
    }
}
