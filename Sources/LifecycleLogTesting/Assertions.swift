import LifecycleLog

/// Fails the current test unless replaying the trace at `path` finds nothing.
///
/// Works in XCTest (the failure is an `XCTFail` at the call) and in Swift
/// Testing (an issue recorded at the call). The failure message lists each
/// finding with its seq, rule, severity and message, marked `+`:
///
/// ```swift
/// func testEditingSavesBeforeBackground() throws {
///     let trace = try runEditingSession()  // records into a trace file
///     assertNoFindings(inTrace: trace)
/// }
/// ```
///
/// Every finding counts, warnings included; switch rules off or re-grade them
/// with `configuration`. In Swift Testing, a failure also attaches the trace
/// and its HTML timeline.
///
/// - Parameters:
///   - path: a `.lmdb` trace file or a `.jsonl` trace.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertNoFindings(
    inTrace path: String,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(path, expected: [], configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the current test unless replaying the trace at `path` finds exactly `expected`.
///
/// Findings are matched by rule and seq (and severity and message where the
/// expectation gives them); the order of `expected` does not matter. The
/// failure message is a diff in report order: findings that were expected
/// and found as context, expected ones that were not found marked `−`, found
/// ones that were not expected marked `+`:
///
/// ```swift
/// assertFindings(inTrace: trace, [
///     ExpectedFinding(.lostUpdate, at: 8),
///     ExpectedFinding(.missedBackgroundSave, at: 12),
/// ])
/// ```
///
/// - Parameters:
///   - path: a `.lmdb` trace file or a `.jsonl` trace.
///   - expected: the findings replay should report, and no others.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    inTrace path: String,
    _ expected: [ExpectedFinding],
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(path, expected: expected, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Flushes `recorder`, then fails the current test unless replaying what it
/// has recorded finds nothing.
///
/// The recorder stays open: record more, and assert again.
///
/// ```swift
/// let recorder = try LifecycleRecorder(path: tracePath)
/// model.run(recordingInto: recorder)
/// assertNoFindings(in: recorder)
/// ```
///
/// - Parameters:
///   - recorder: the recorder; its events are committed before the replay.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertNoFindings(
    in recorder: LifecycleRecorder,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(recorder, expected: [], configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Flushes `recorder`, then fails the current test unless replaying what it
/// has recorded finds exactly `expected`.
///
/// See ``assertFindings(inTrace:_:configuration:customRules:fileID:filePath:line:column:)``
/// for how findings are matched and how a difference reads.
///
/// - Parameters:
///   - recorder: the recorder; its events are committed before the replay.
///   - expected: the findings replay should report, and no others.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    in recorder: LifecycleRecorder,
    _ expected: [ExpectedFinding],
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(recorder, expected: expected, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func check(_ recorder: LifecycleRecorder, expected: [ExpectedFinding], configuration: RuleConfiguration, customRules: [any LifecycleRule],
                   at site: CallSite) {
    do {
        try recorder.flush()
    } catch {
        TestFailure.record("\(recorder.path): could not commit the recorded events before replaying them: \(error)", at: site)
        return
    }
    check(recorder.path, expected: expected, configuration: configuration, customRules: customRules, at: site)
}

private func check(_ path: String, expected: [ExpectedFinding], configuration: RuleConfiguration, customRules: [any LifecycleRule],
                   at site: CallSite) {
    guard var failure = failureMessage(trace: path, expected: expected, configuration: configuration, customRules: customRules) else { return }
    if !TestFailure.inSwiftTesting, let timeline = TraceAttachments.writeTimeline(beside: path, configuration: configuration) {
        // XCTest has no attachments outside Apple's platforms: the timeline goes beside the trace.
        failure += "\nThe timeline of this trace, written for this failure: \(timeline) (open it in a browser)"
    }
    TestFailure.record(failure, at: site)
    TraceAttachments.record(trace: path, configuration: configuration, at: site)
}

/// What an assertion on the trace at `path` reports: `nil` when it passes,
/// else the failure message (the findings' difference, or why the trace could not be replayed).
func failureMessage(trace path: String, expected: [ExpectedFinding], configuration: RuleConfiguration,
                    customRules: [any LifecycleRule] = []) -> String? {
    let report: ReplayReport
    do {
        report = try Replayer.replay(path, configuration: configuration, customRules: customRules)
    } catch {
        return "could not replay the trace: \(error)"
    }
    return FindingsDifference(trace: path, actual: report.findings, expected: expected)?.description
}
