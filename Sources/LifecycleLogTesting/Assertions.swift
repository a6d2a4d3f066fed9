import IssueReporting
#if canImport(XCTest) && !canImport(Darwin)
import XCTest
#endif
#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif

/// Fails the current test unless replaying `session` finds nothing.
///
/// Works in XCTest (the failure is an `XCTFail` at the call) and in Swift Testing (an issue
/// recorded at the call), through swift-issue-reporting's `reportIssue`. The failure message
/// lists each finding with its seq, rule, severity and message, marked `+`:
///
/// ```swift
/// @Test func editingSavesBeforeBackground() throws {
///     let recorder = LifecycleRecorder(sink: MemorySink())
///     driveTheApp(recordingInto: recorder)
///     assertNoFindings(in: .recorder(recorder))  // flushes the recorder, then replays it
/// }
/// ```
///
/// Every finding counts, warnings included; switch rules off or re-grade them with
/// `configuration`. In Swift Testing, a failure also attaches the session (its trace file and,
/// where liblmdb is, its HTML timeline; events in memory as `session.jsonl`); in XCTest, the
/// timeline of a trace file is written beside it and named in the message.
///
/// - Parameters:
///   - session: what to replay: ``RecordedSession/recorder(_:)``, ``RecordedSession/trace(_:)``,
///     ``RecordedSession/events(_:)`` or ``RecordedSession/live(_:)``.
///   - configuration: the rules to run, as `replay --rules` sets them (not for a live check, which
///     runs its own).
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`; not for a
///     live check, which runs its own).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertNoFindings(
    in session: RecordedSession,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(session, expected: [], exhaustivity: .on, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the current test unless replaying `session` finds exactly `expected` (with
/// `exhaustivity: .off`, at least `expected`).
///
/// Findings are matched by rule and seq (and severity and message where the expectation gives
/// them); the order of `expected` does not matter. The failure message is a diff in report order:
/// findings that were expected and found as context, expected ones that were not found marked
/// `−`, found ones that were not expected marked `+`:
///
/// ```swift
/// assertFindings(in: .trace("Fixtures/two-windows.jsonl"), [
///     ExpectedFinding(.lostUpdate, at: 8),
///     ExpectedFinding(.missedBackgroundSave, at: 12),
/// ])
/// ```
///
/// It reports and attaches a failure as ``assertNoFindings(in:configuration:customRules:fileID:filePath:line:column:)-(RecordedSession,_,_,_,_,_,_)``
/// does.
///
/// - Parameters:
///   - session: what to replay: ``RecordedSession/recorder(_:)``, ``RecordedSession/trace(_:)``,
///     ``RecordedSession/events(_:)`` or ``RecordedSession/live(_:)``.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - configuration: the rules to run, as `replay --rules` sets them (not for a live check, which
///     runs its own).
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`; not for a
///     live check, which runs its own).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    in session: RecordedSession,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(session, expected: expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func check(_ session: RecordedSession, expected: [ExpectedFinding], exhaustivity: Exhaustivity,
                   configuration: RuleConfiguration, customRules: [any LifecycleRule], at site: CallSite) {
    guard var failure = failureMessage(session, expected: expected, exhaustivity: exhaustivity,
                                       configuration: configuration, customRules: customRules) else { return }
    if !TraceAttachments.inSwiftTesting, let file = session.file,
       let timeline = TraceAttachments.writeTimeline(beside: file, configuration: configuration) {
        // XCTest has no attachments outside Apple's platforms: the timeline goes beside the trace.
        failure += "\nThe timeline of this trace, written for this failure: \(timeline) (open it in a browser)"
    }
    report(failure, at: site)
    TraceAttachments.record(session, configuration: configuration, at: site)
}

/// Fails the running test with `message` at `site`, through swift-issue-reporting's `reportIssue`:
/// an issue in a Swift Testing test, an `XCTFail` in an XCTest one; outside tests, its runtime
/// warning (standard error off Apple platforms).
///
/// Except in an XCTest test off Apple platforms: there `reportIssue` adds to every failure that it
/// "was emitted from tests running in a host application", which it decides by looking for
/// Apple's XCTest frames on the call stack, and Linux's XCTest has none; so the failure would carry
/// a false warning, and the message the assertion wrote would not be the message the test gets.
/// There the assertion calls `XCTFail` itself, as `reportIssue` would have.
private func report(_ message: String, at site: CallSite) {
    #if canImport(XCTest) && !canImport(Darwin)
    if case .xcTest = TestContext.current {
        XCTFail(message, file: site.filePath, line: site.line)
        return
    }
    #endif
    reportIssue(message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
}

/// What an assertion on `session` reports: `nil` when it passes, else the failure message (the
/// findings' difference, or why the session could not be replayed).
func failureMessage(_ session: RecordedSession, expected: [ExpectedFinding], exhaustivity: Exhaustivity = .on,
                    configuration: RuleConfiguration, customRules: [any LifecycleRule] = []) -> String? {
    if case .live = session.source, configuration != RuleConfiguration() || !customRules.isEmpty {
        return "\(session.name): a live check runs its own rules (the configuration and appRules it was made with): assert over it without configuration: or customRules:"
    }
    let report: ReplayReport
    do {
        report = try session.replay(configuration: configuration, customRules: customRules)
    } catch {
        return "\(session.name): could not replay the session: \(error)"
    }
    return FindingsDifference(trace: session.name, actual: report.findings, expected: expected,
                              exhaustivity: exhaustivity)?.description
}

/// What an assertion on the trace at `path` reports (see ``failureMessage(_:expected:exhaustivity:configuration:customRules:)``).
func failureMessage(trace path: String, expected: [ExpectedFinding], configuration: RuleConfiguration,
                    customRules: [any LifecycleRule] = []) -> String? {
    failureMessage(.trace(path), expected: expected, configuration: configuration, customRules: customRules)
}
