/// Where rules report: findings wait here until no later event can join
/// them (the watermark, ARCHITECTURE.md "Streaming findings"), then become
/// final in (seq, rule) order.
package struct FindingQueue: Sendable {
    /// Which rules run and at which severity.
    let configuration: RuleConfiguration
    /// Findings that a later event may still join (their seq is at or past the watermark).
    var unsettled: [Finding] = []
    /// The lowest seq of ``unsettled`` (`.max`: none): whether anything settles is one comparison,
    /// not a scan of every waiting finding at every event (issue 28: findings held back by a low
    /// watermark made such a scan quadratic).
    private(set) var lowestUnsettled: UInt64 = .max
    /// The (rule, seq) pairs of ``unsettled``: one finding per rule and seq.
    var reportedSlots: Set<FindingSlot> = []
    /// Findings that are final, sorted by seq then rule.
    var settled: [Finding] = []
    /// The process the findings reported now are about, when it is not the main app: their
    /// messages name it (trace format 2).
    var process: String?

    init(configuration: RuleConfiguration) {
        self.configuration = configuration
    }

    /// Reports a finding of `rule` at the severity the configuration gives it (none: off), about
    /// `subject` (its identity across devices, ``FindingSubject``).
    mutating func report(_ rule: Rule, at seq: UInt64, related: [UInt64], subject: FindingSubject? = nil, _ message: String) {
        report(rule, severity: configuration.severity(of: rule), at: seq, related: related, subject: subject, message)
    }

    /// Reports a finding of `rule` at `severity` (`nil`: dropped). The first finding of a rule at a seq wins.
    /// It keeps the first ``FindingBound/items`` of `related` (ascending) and of each list of
    /// `subject`; the rule bounds its message (``FindingBound``).
    mutating func report(_ rule: Rule, severity: Severity?, at seq: UInt64, related: [UInt64], subject: FindingSubject? = nil,
                         _ message: String) {
        guard let severity else { return }
        guard reportedSlots.insert(FindingSlot(seq: seq, rule: rule)).inserted else { return }  // one finding per rule and seq
        let related = FindingBound.first(FindingBound.items, of: related.lazy.filter { $0 != seq && $0 > 0 }, by: <)
        let text = process.map { "\(message) (In process \"\($0)\".)" } ?? message
        // A finding about another process than the app is about that process too (the process
        // is added past the bound: it is the finding's context, not one of the items it lists).
        let subject = subject?.bounded()
        let about = process.flatMap { p in subject.map { $0.adding(detail: "process:\(p)") } } ?? subject
        unsettled.append(Finding(rule: rule, severity: severity, seq: seq, related: related, message: text, subject: about))
        lowestUnsettled = min(lowestUnsettled, seq)
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64) {
        guard lowestUnsettled < mark else { return }
        var final: [Finding] = []
        var lowest = UInt64.max
        unsettled.removeAll { finding in
            guard finding.seq < mark else {
                lowest = min(lowest, finding.seq)
                return false
            }
            final.append(finding)
            reportedSlots.remove(FindingSlot(seq: finding.seq, rule: finding.rule))
            return true
        }
        lowestUnsettled = lowest
        final.sort { a, b in a.seq != b.seq ? a.seq < b.seq : a.rule < b.rule }
        settled.append(contentsOf: final)
    }
}

/// A rule at a seq: there is at most one finding for each.
package struct FindingSlot: Hashable {
    var seq: UInt64
    var rule: Rule
}

/// The event being applied, for anchors and durations.
package struct EventTime: Sendable {
    var seq: UInt64 = 0
    var t: Double = 0
}
