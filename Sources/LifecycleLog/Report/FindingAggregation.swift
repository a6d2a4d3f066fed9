/// Counts the findings a long trace's timeline does not place one by one, per
/// stretch of seqs and rule, in memory bounded whatever the trace's length.
///
/// Stretches are `width` seqs wide. When a finding lands past the last of
/// ``maxStretches`` stretches, `width` doubles and neighbouring stretches
/// merge, so there are never more than `maxStretches` × rules × severities counts.
struct FindingAggregation {
    /// The most stretches kept.
    static let maxStretches: UInt64 = 1024

    struct Key: Hashable, Comparable {
        var stretch: UInt64
        var severity: Severity
        var rule: Rule

        static func < (a: Key, b: Key) -> Bool {
            if a.stretch != b.stretch { return a.stretch < b.stretch }
            if a.severity != b.severity { return a.severity > b.severity }  // errors first
            return a.rule < b.rule
        }
    }

    struct Count {
        var count: Int
        var firstSeq: UInt64
        var lastSeq: UInt64
    }

    private(set) var width: UInt64 = 1
    private(set) var counts: [Key: Count] = [:]
    /// How many findings were counted.
    private(set) var total = 0

    mutating func add(_ finding: Finding) {
        while finding.seq / width >= Self.maxStretches { widen() }
        total += 1
        let key = Key(stretch: finding.seq / width, severity: finding.severity, rule: finding.rule)
        if var c = counts[key] {
            c.count += 1
            c.firstSeq = min(c.firstSeq, finding.seq)
            c.lastSeq = max(c.lastSeq, finding.seq)
            counts[key] = c
        } else {
            counts[key] = Count(count: 1, firstSeq: finding.seq, lastSeq: finding.seq)
        }
    }

    private mutating func widen() {
        width *= 2
        var merged: [Key: Count] = [:]
        for (key, c) in counts {
            let k = Key(stretch: key.stretch / 2, severity: key.severity, rule: key.rule)
            if let m = merged[k] {
                merged[k] = Count(count: m.count + c.count, firstSeq: min(m.firstSeq, c.firstSeq), lastSeq: max(m.lastSeq, c.lastSeq))
            } else {
                merged[k] = c
            }
        }
        counts = merged
    }

    /// The counts in timeline order: by stretch, errors first, then by rule.
    var sorted: [(key: Key, count: Count)] {
        counts.sorted { $0.key < $1.key }.map { (key: $0.key, count: $0.value) }
    }

    /// Every seq an aggregate starts or ends at (the timeline needs their `t`).
    var boundarySeqs: Set<UInt64> {
        var seqs = Set<UInt64>()
        for c in counts.values { seqs.insert(c.firstSeq); seqs.insert(c.lastSeq) }
        return seqs
    }
}
