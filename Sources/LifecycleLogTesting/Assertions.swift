#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif

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
///   - path: a `.jsonl` trace (a `SpoolSink`'s file, a fixture), or, where liblmdb is (Linux), a
///     `.lmdb` trace file.
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
    check(.trace(path), expected: [], exhaustivity: .on, configuration: configuration, customRules: customRules,
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
///   - path: a `.jsonl` trace (a `SpoolSink`'s file, a fixture), or, where liblmdb is (Linux), a
///     `.lmdb` trace file.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    inTrace path: String,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.trace(path), expected: expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Flushes `recorder`, then fails the current test unless replaying what it
/// has recorded finds nothing.
///
/// Any sink works where its events can be read back: a `MemorySink` (its events), a `SpoolSink`
/// (its file), and, where liblmdb is (Linux), a `TraceFileSink`. A `CollectorSink`'s events are on
/// the collector: assert over its trace with ``assertNoFindings(inTrace:configuration:customRules:fileID:filePath:line:column:)``.
/// The recorder stays open: record more, and assert again.
///
/// ```swift
/// let sink = MemorySink()
/// let recorder = LifecycleRecorder(sink: sink)
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
    check(.recorder(recorder), expected: [], exhaustivity: .on, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Flushes `recorder`, then fails the current test unless replaying what it
/// has recorded finds exactly `expected`.
///
/// See ``assertFindings(inTrace:_:exhaustivity:configuration:customRules:fileID:filePath:line:column:)``
/// for how findings are matched and how a difference reads.
///
/// - Parameters:
///   - recorder: the recorder; its events are committed before the replay.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    in recorder: LifecycleRecorder,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.recorder(recorder), expected: expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the current test unless replaying `events` (seq n is the nth) finds nothing.
///
/// ```swift
/// let events: [LifecycleEvent] = [
///     LifecycleEvent(t: 0, .launch(LifecycleEvent.Launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)]))),
///     LifecycleEvent(t: 1, .open(window: "w1", scene: "main")),
/// ]
/// assertNoFindings(in: events)
/// ```
///
/// - Parameters:
///   - events: the session's events, in order.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertNoFindings(
    in events: [LifecycleEvent],
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.events(events), expected: [], exhaustivity: .on, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the current test unless replaying `events` (seq n is the nth) finds `expected`.
///
/// See ``assertFindings(inTrace:_:exhaustivity:configuration:customRules:fileID:filePath:line:column:)``
/// for how findings are matched and how a difference reads.
///
/// - Parameters:
///   - events: the session's events, in order.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    in events: [LifecycleEvent],
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.events(events), expected: expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func check(_ session: RecordedSession, expected: [ExpectedFinding], exhaustivity: Exhaustivity,
                   configuration: RuleConfiguration, customRules: [any LifecycleRule], at site: CallSite) {
    guard var failure = failureMessage(session, expected: expected, exhaustivity: exhaustivity,
                                       configuration: configuration, customRules: customRules) else { return }
    if !TestFailure.inSwiftTesting, let file = session.file,
       let timeline = TraceAttachments.writeTimeline(beside: file, configuration: configuration) {
        // XCTest has no attachments outside Apple's platforms: the timeline goes beside the trace.
        failure += "\nThe timeline of this trace, written for this failure: \(timeline) (open it in a browser)"
    }
    TestFailure.record(failure, at: site)
    TraceAttachments.record(session, configuration: configuration, at: site)
}

/// What an assertion on `session` reports: `nil` when it passes, else the failure message (the
/// findings' difference, or why the session could not be replayed).
func failureMessage(_ session: RecordedSession, expected: [ExpectedFinding], exhaustivity: Exhaustivity = .on,
                    configuration: RuleConfiguration, customRules: [any LifecycleRule] = []) -> String? {
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

/// Fails the current test unless the live check `live` has found nothing in what it has folded so
/// far (it waits for everything recorded to be folded). The live check runs its own rules
/// (`LiveCheck`'s `configuration` and `appRules`); findings that wait for the end of the session
/// come after `live.finish()`.
///
/// ```swift
/// let live = try LiveCheck(forwardingTo: MemorySink())
/// let recorder = LifecycleRecorder(sink: live)
/// driveTheApp(recordingInto: recorder)
/// try recorder.flush()
/// assertNoFindings(in: live)
/// ```
///
/// - Parameters:
///   - live: the live check.
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertNoFindings(
    in live: LiveCheck,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.live(live), expected: [], exhaustivity: .on, configuration: RuleConfiguration(), customRules: [],
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the current test unless the live check `live` has found `expected` in what it has folded
/// so far (it waits for everything recorded to be folded).
///
/// - Parameters:
///   - live: the live check.
///   - expected: the findings it should have reported.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
public func assertFindings(
    in live: LiveCheck,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(.live(live), expected: expected, exhaustivity: exhaustivity, configuration: RuleConfiguration(), customRules: [],
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
