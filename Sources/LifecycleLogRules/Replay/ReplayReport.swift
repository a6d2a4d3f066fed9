/// What replaying one trace found.
public struct ReplayReport: Sendable, Hashable {
    /// The trace's path, as given.
    public var trace: String
    /// The number of events replayed.
    public var events: UInt64
    /// The number of runs (launches).
    public var runs: Int
    /// The findings, sorted by seq, then rule (empty when they were streamed).
    public var findings: [Finding]
    /// The number of `error` findings.
    public var errors: Int
    /// The number of `warning` findings.
    public var warnings: Int

    /// Creates a report of `findings`.
    public init(trace: String, events: UInt64, runs: Int, findings: [Finding]) {
        self.init(trace: trace, events: events, runs: runs, findings: findings,
                  errors: findings.count { $0.severity == .error }, warnings: findings.count { $0.severity == .warning })
    }

    /// Creates a report whose findings were counted as they streamed by.
    public init(trace: String, events: UInt64, runs: Int, findings: [Finding], errors: Int, warnings: Int) {
        self.trace = trace
        self.events = events
        self.runs = runs
        self.findings = findings
        self.errors = errors
        self.warnings = warnings
    }
}
