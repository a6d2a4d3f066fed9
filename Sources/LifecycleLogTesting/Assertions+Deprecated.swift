#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif

// The assertions before ``RecordedSession``: one overload per kind of session. They forward to
// ``assertNoFindings(in:configuration:customRules:fileID:filePath:line:column:)`` and
// ``assertFindings(in:_:exhaustivity:configuration:customRules:fileID:filePath:line:column:)``,
// and stay so that code written against them still compiles, with a deprecation warning that says
// what to write instead.

/// Fails the current test unless replaying the trace at `path` finds nothing.
///
/// Deprecated: write `assertNoFindings(in: .trace(path))`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - path: a `.jsonl` trace, or, where liblmdb is (Linux), a `.lmdb` trace file.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertNoFindings(in: .trace(path)), the same assertion over a RecordedSession")
public func assertNoFindings(
    inTrace path: String,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertNoFindings(in: .trace(path), configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying the trace at `path` finds exactly `expected`.
///
/// Deprecated: write `assertFindings(in: .trace(path), expected)`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - path: a `.jsonl` trace, or, where liblmdb is (Linux), a `.lmdb` trace file.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertFindings(in: .trace(path), _:), the same assertion over a RecordedSession")
public func assertFindings(
    inTrace path: String,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertFindings(in: .trace(path), expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying what `recorder` has recorded so far finds nothing.
///
/// Deprecated: write `assertNoFindings(in: .recorder(recorder))`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - recorder: the recorder; its events are committed before the replay.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertNoFindings(in: .recorder(recorder)), the same assertion over a RecordedSession")
public func assertNoFindings(
    in recorder: LifecycleRecorder,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertNoFindings(in: .recorder(recorder), configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying what `recorder` has recorded so far finds exactly `expected`.
///
/// Deprecated: write `assertFindings(in: .recorder(recorder), expected)`, the same assertion over a ``RecordedSession``.
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
@available(*, deprecated, message: "use assertFindings(in: .recorder(recorder), _:), the same assertion over a RecordedSession")
public func assertFindings(
    in recorder: LifecycleRecorder,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertFindings(in: .recorder(recorder), expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying `events` finds nothing.
///
/// Deprecated: write `assertNoFindings(in: .events(events))`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - events: the session's events, in order.
///   - configuration: the rules to run, as `replay --rules` sets them.
///   - customRules: the app's own rules, run beside the catalogue's (see `LifecycleRule`).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertNoFindings(in: .events(events)), the same assertion over a RecordedSession")
public func assertNoFindings(
    in events: [LifecycleEvent],
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertNoFindings(in: .events(events), configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying `events` finds exactly `expected`.
///
/// Deprecated: write `assertFindings(in: .events(events), expected)`, the same assertion over a ``RecordedSession``.
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
@available(*, deprecated, message: "use assertFindings(in: .events(events), _:), the same assertion over a RecordedSession")
public func assertFindings(
    in events: [LifecycleEvent],
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    configuration: RuleConfiguration = RuleConfiguration(),
    customRules: [any LifecycleRule] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertFindings(in: .events(events), expected, exhaustivity: exhaustivity, configuration: configuration, customRules: customRules,
                     fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying what the live check `live` has found so far finds nothing.
///
/// Deprecated: write `assertNoFindings(in: .live(live))`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - live: the live check.
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertNoFindings(in: .live(live)), the same assertion over a RecordedSession")
public func assertNoFindings(
    in live: LiveCheck,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertNoFindings(in: .live(live), fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test unless replaying what the live check `live` has found so far finds exactly `expected`.
///
/// Deprecated: write `assertFindings(in: .live(live), expected)`, the same assertion over a ``RecordedSession``.
///
/// - Parameters:
///   - live: the live check.
///   - expected: the findings replay should report.
///   - exhaustivity: `.on` (the default): no other finding may be reported; `.off`: other
///     findings are ignored (see ``Exhaustivity``).
///   - fileID: the file the assertion is written in; leave the default.
///   - filePath: the file the assertion is written in; leave the default.
///   - line: the line of the assertion; leave the default.
///   - column: the column of the assertion; leave the default.
@available(*, deprecated, message: "use assertFindings(in: .live(live), _:), the same assertion over a RecordedSession")
public func assertFindings(
    in live: LiveCheck,
    _ expected: [ExpectedFinding],
    exhaustivity: Exhaustivity = .on,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertFindings(in: .live(live), expected, exhaustivity: exhaustivity, fileID: fileID, filePath: filePath, line: line, column: column)
}
