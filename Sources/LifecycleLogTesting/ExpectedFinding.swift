import LifecycleLogRules

/// A finding a test expects replay to report, for
/// ``assertFindings(in:_:exhaustivity:configuration:customRules:fileID:filePath:line:column:)-(RecordedSession,_,_,_,_,_,_,_,_)``.
///
/// Replay reports at most one finding per rule and seq, so a rule and the seq
/// of the event it is anchored at name a finding. The severity and the message
/// are compared only when you give them.
///
/// ```swift
/// assertFindings(in: .trace(path), [
///     ExpectedFinding(.lostUpdate, at: 8),
///     ExpectedFinding(.missedBackgroundSave, at: 12, severity: .error),
/// ])
/// ```
public struct ExpectedFinding: Sendable, Hashable, CustomStringConvertible {
    /// The rule expected to fire.
    public var rule: Rule
    /// The seq of the event the finding is expected to be anchored at.
    public var seq: UInt64
    /// The expected severity, or `nil` to accept either.
    public var severity: Severity?
    /// The expected message, exactly, or `nil` to accept any.
    public var message: String?

    /// Expects `rule` to fire at the event `seq`.
    ///
    /// - Parameters:
    ///   - rule: the rule expected to fire.
    ///   - seq: the seq of the event the finding is anchored at (the catalogue names which event that is for each rule).
    ///   - severity: the expected severity; `nil` accepts either.
    ///   - message: the expected message, compared exactly; `nil` accepts any.
    public init(_ rule: Rule, at seq: UInt64, severity: Severity? = nil, message: String? = nil) {
        self.rule = rule
        self.seq = seq
        self.severity = severity
        self.message = message
    }

    /// Whether `finding` is this one: the same rule and seq, and the same
    /// severity and message where they are given.
    public func matches(_ finding: Finding) -> Bool {
        finding.rule == rule && finding.seq == seq
            && (severity.map { $0 == finding.severity } ?? true)
            && (message.map { $0 == finding.message } ?? true)
    }

    /// The expectation as a line of a findings diff: `seq 8 [lost-update]`,
    /// followed by the severity and the message when they are given.
    public var description: String {
        var line = "seq \(seq) [\(rule.rawValue)]"
        if let severity { line += " \(severity.rawValue)" }
        if let message { line += ": \(message)" }
        return line
    }
}
