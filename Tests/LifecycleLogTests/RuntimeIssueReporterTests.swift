import IssueReporting
import LifecycleLog
@testable import LifecycleLogLive
import XCTest

/// `RuntimeIssueReporter` under XCTest, through the real swift-issue-reporting (issue 29: 2): an
/// error is an XCTest failure at the report, a warning is logged and fails nothing (XCTest has no
/// warnings; an app-hosted test run sees the app's warnings this way).
final class RuntimeIssueReporterTests: XCTestCase {
    static let warning = Finding(rule: .phaseSkip, severity: .warning, seq: 3, related: [], message: "skipped")
    static let error = Finding(rule: .lostUpdate, severity: .error, seq: 8, related: [6], message: "lost")

    /// What a reporter logged.
    final class Logged: LiveFindingReporter {
        let lines = Locked<[String]>([])
        func report(_ finding: Finding, message: String) { lines.withLock { $0.append(message) } }
    }

    func testXCTestIsTheContextSwiftIssueReportingSeesHere() {
        XCTAssertTrue(isTesting)
        guard case .xcTest? = TestContext.current else {
            return XCTFail("TestContext.current is \(String(describing: TestContext.current)), not .xcTest")
        }
    }

    func testWhereEachSeverityGoesInEachContext() {
        XCTAssertEqual(RuntimeIssueReporter.route(.error, in: nil), .issue(.error))
        XCTAssertEqual(RuntimeIssueReporter.route(.error, in: .xcTest), .issue(.error))
        XCTAssertEqual(RuntimeIssueReporter.route(.error, in: .swiftTesting(nil)), .issue(.error))
        XCTAssertEqual(RuntimeIssueReporter.route(.warning, in: nil), .issue(.warning), "an app run: a runtime warning")
        XCTAssertEqual(RuntimeIssueReporter.route(.warning, in: .xcTest), .log, "XCTest has no warnings")
        #if compiler(>=6.3)
        XCTAssertEqual(RuntimeIssueReporter.route(.warning, in: .swiftTesting(nil)), .issue(.warning))
        #else
        XCTAssertEqual(RuntimeIssueReporter.route(.warning, in: .swiftTesting(nil)), .log)
        #endif
    }
}

#if !canImport(ObjectiveC)
/// The failures swift-issue-reporting records, captured (swift-corelibs-xctest has no
/// `XCTExpectFailure`, and swift-issue-reporting's `withExpectedIssue` records a failure saying so
/// there: failures are captured by overriding `recordFailure`, which `XCTFail` ends in).
final class RuntimeIssueReporterFailureTests: XCTestCase {
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAWarningDuringAnXCTestTestIsLoggedAndFailsNothing() {
        let log = RuntimeIssueReporterTests.Logged()
        let message = LiveCheck.message(for: RuntimeIssueReporterTests.warning, destination: "session.jsonl")
        capturing = true
        RuntimeIssueReporter(warningLog: log).report(RuntimeIssueReporterTests.warning, message: message)
        capturing = false
        XCTAssertEqual(captured.map(\.description), [], "a warning is not an XCTest failure")
        XCTAssertEqual(log.lines.withLock { $0 }, [message], "the warning is logged instead")
    }

    func testAnErrorDuringAnXCTestTestIsAnXCTestFailure() {
        let log = RuntimeIssueReporterTests.Logged()
        let message = LiveCheck.message(for: RuntimeIssueReporterTests.error, destination: "session.jsonl")
        capturing = true
        RuntimeIssueReporter(warningLog: log).report(RuntimeIssueReporterTests.error, message: message)
        capturing = false
        XCTAssertEqual(captured.count, 1, "\(captured)")
        XCTAssertEqual(captured.first?.description.contains(message), true, "\(captured)")
        XCTAssertEqual(log.lines.withLock { $0 }, [], "an error is not only logged")
    }

    func testTheStandardReportersOfADebugBuildFailAnXCTestTestOnlyForAnError() throws {
        #if DEBUG
        let reporters = LiveCheck.standardReporters()
        XCTAssertTrue(reporters.first is RuntimeIssueReporter)
        capturing = true
        for reporter in reporters {
            reporter.report(RuntimeIssueReporterTests.warning, message: "the warning")
        }
        let afterWarning = captured.count
        for reporter in reporters {
            reporter.report(RuntimeIssueReporterTests.error, message: "the error")
        }
        capturing = false
        XCTAssertEqual(afterWarning, 0, "\(captured)")
        XCTAssertEqual(captured.map(\.description).filter { $0.contains("the error") }.count, 1, "\(captured)")
        #else
        throw XCTSkip("standardReporters() has RuntimeIssueReporter in a DEBUG build only")
        #endif
    }
}
#endif
