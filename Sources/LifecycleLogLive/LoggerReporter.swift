import LifecycleLogRules
import Logging

/// Reports each live finding to an app's swift-log `Logger`: errors at `.error`, warnings at
/// `.warning`, with the rule, seq and severity as metadata.
public struct LoggerReporter: LiveFindingReporter {
    /// The app's logger.
    public let logger: Logger

    /// A reporter logging to `logger`.
    public init(_ logger: Logger) { self.logger = logger }

    /// Logs `message` with the finding's rule, seq and severity as metadata.
    public func report(_ finding: Finding, message: String) {
        let metadata: Logger.Metadata = [
            "lifecyclelog.rule": "\(finding.rule.rawValue)",
            "lifecyclelog.seq": "\(finding.seq)",
            "lifecyclelog.severity": "\(finding.severity.rawValue)",
        ]
        logger.log(level: finding.severity == .error ? .error : .warning, "\(message)", metadata: metadata)
    }
}
