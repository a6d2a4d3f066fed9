import LifecycleLogRules
#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#endif

/// Reports each live finding to the system log: `os.Logger` (subsystem `LifecycleLog`, category
/// `live-check`; errors at `.error`, warnings at `.default`) on Apple platforms, standard error
/// elsewhere. Console.app and `log stream --predicate 'subsystem == "LifecycleLog"'` show them.
public struct SystemLogReporter: LiveFindingReporter {
    /// A reporter.
    public init() {}

    /// Logs `message`.
    public func report(_ finding: Finding, message: String) {
        #if canImport(os)
        let logger = Logger(subsystem: "LifecycleLog", category: "live-check")
        if finding.severity == .error {
            logger.error("\(message, privacy: .public)")
        } else {
            logger.notice("\(message, privacy: .public)")
        }
        #else
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }  // standard error, unbuffered
        #endif
    }
}
