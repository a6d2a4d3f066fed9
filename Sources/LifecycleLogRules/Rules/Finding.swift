/// One thing `replay` found, anchored at the seq of the event that the
/// catalogue names for its rule.
public struct Finding: Sendable, Hashable {
    /// The rule that fired.
    public var rule: Rule
    /// Its severity, after any re-grading by ``RuleConfiguration``.
    public var severity: Severity
    /// The seq of the event the finding is anchored at.
    public var seq: UInt64
    /// Other events that explain it (the read a stale write was based on, the write that dirtied a key…), ascending:
    /// at most the first 10 of them (spec/rules.md, Readings 24).
    public var related: [UInt64]
    /// What happened and how to fix it.
    public var message: String
    /// The 1-based line, in the JSON Lines file the trace was read from, of
    /// the event at ``seq``; `nil` for a trace file (`.lmdb`), which has no
    /// lines, and for findings of a ``LifecycleReducer`` fed directly.
    public var line: Int?
    /// What the finding is about in names that are the same on every device (scenes, keys, no
    /// window ids): its identity for SARIF fingerprints. The catalogue's rules set it; `nil` for
    /// an app's own rules, whose fingerprint is made from the message. It does not take part in
    /// comparing findings (`==`), which compares what a report shows.
    public var subject: FindingSubject?

    /// Creates a finding.
    public init(rule: Rule, severity: Severity, seq: UInt64, related: [UInt64], message: String, line: Int? = nil,
                subject: FindingSubject? = nil) {
        self.rule = rule
        self.severity = severity
        self.seq = seq
        self.related = related
        self.message = message
        self.line = line
        self.subject = subject
    }

    /// Findings are equal when what a report shows of them is: rule, severity, seq, related,
    /// message and line (``subject`` is derived from the same facts).
    public static func == (a: Finding, b: Finding) -> Bool {
        a.rule == b.rule && a.severity == b.severity && a.seq == b.seq && a.related == b.related && a.message == b.message && a.line == b.line
    }

    /// Hashes what `==` compares (everything but ``subject``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(severity)
        hasher.combine(seq)
        hasher.combine(related)
        hasher.combine(message)
        hasher.combine(line)
    }
}
