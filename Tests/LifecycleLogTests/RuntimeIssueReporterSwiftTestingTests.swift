import IssueReporting
import LifecycleLog
@testable import LifecycleLogLive
import Testing

/// `RuntimeIssueReporter` under Swift Testing, through the real swift-issue-reporting (issue 29: 2):
/// an error is an issue of the test, a warning is a warning issue (Swift 6.3 and later) that does not
/// fail it. The test target links IssueReportingTestSupport, through which swift-issue-reporting
/// finds the running test and records into it.
@Suite struct RuntimeIssueReporterSwiftTestingTests {
    static let warning = Finding(rule: .phaseSkip, severity: .warning, seq: 3, related: [], message: "skipped")
    static let error = Finding(rule: .lostUpdate, severity: .error, seq: 8, related: [6], message: "lost")

    @Test func swiftTestingIsTheContextSwiftIssueReportingSeesHere() {
        #expect(isTesting)
        #expect(TestContext.current?.isSwiftTesting == true, "TestContext.current: \(String(describing: TestContext.current))")
    }

    @Test func aWarningIsAWarningIssueThatDoesNotFailTheTest() {
        let log = RuntimeIssueReporterTests.Logged()
        let message = LiveCheck.message(for: Self.warning, destination: "session.jsonl")
        RuntimeIssueReporter(warningLog: log).report(Self.warning, message: message)  // must not fail this test
        #if compiler(>=6.3)
        #expect(log.lines.withLock { $0 } == [], "recorded as a warning issue, not logged")
        #else
        #expect(log.lines.withLock { $0 } == [message], "no warnings in Swift Testing before 6.3: logged")
        #endif
    }

    #if compiler(>=6.3)
    @Test func theWarningIsRecordedWithWarningSeverity() {
        let message = LiveCheck.message(for: Self.warning, destination: "session.jsonl")
        withKnownIssue {
            RuntimeIssueReporter().report(Self.warning, message: message)
        } matching: { issue in
            issue.severity == .warning && !issue.isFailure && issue.comments.contains { $0.rawValue == message }
        }
    }
    #endif

    @Test func anErrorIsAnIssueOfTheTest() {
        let log = RuntimeIssueReporterTests.Logged()
        let message = LiveCheck.message(for: Self.error, destination: "session.jsonl")
        withKnownIssue {
            RuntimeIssueReporter(warningLog: log).report(Self.error, message: message)
        } matching: { issue in
            #if compiler(>=6.3)
            guard issue.severity == .error else { return false }
            #endif
            return issue.comments.contains { $0.rawValue == message }
        }
        #expect(log.lines.withLock { $0 } == [])
    }
}
