import LifecycleLogRecorder

/// Where a ``LiveCheck`` reports each finding, beside its callback and its ``LiveCheck/findings``
/// stream: an Xcode runtime issue, the system log, an app's logger (`LifecycleLogLive` has those).
///
/// A reporter is called on the live check's own queue, once per finding, in report order.
public protocol LiveFindingReporter: Sendable {
    /// Reports `finding`; `message` is ``LiveCheck/message(for:destination:)``'s sentence for it.
    func report(_ finding: Finding, message: String)
}

extension LiveCheck {
    /// The sentence a live finding is reported with: the rule, the severity, the message and where
    /// to look (the seq of the event, the session's destination).
    ///
    /// ```
    /// LifecycleLog: error [missed-background-save] at event 14 of session.jsonl: Unsaved "notes" …
    /// ```
    public static func message(for finding: Finding, destination: String) -> String {
        "LifecycleLog: \(finding.severity.rawValue) [\(finding.rule.rawValue)] at event \(finding.seq) of \(destination): \(finding.message)"
    }
}
