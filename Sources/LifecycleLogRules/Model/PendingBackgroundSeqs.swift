/// The seqs of the windows' background saves still undecided (``OpenWindow/pendingBackground``),
/// with how many windows wait at each: the lowest is what the watermark needs after every event,
/// found without a scan of every open window (issue 28: that scan made a background of N windows,
/// then their N dismissals, quadratic).
///
/// A window's pending save gets the seq of the event that sent it to the background, so seqs are
/// added in ascending order: a sorted array, consumed from the front, and a count for each.
struct PendingBackgroundSeqs: Sendable {
    private var seqs: [UInt64] = []
    private var head = 0
    private var counts: [UInt64: Int] = [:]

    /// The lowest seq a window's save still waits at, or `nil`.
    var lowest: UInt64? { head < seqs.count ? seqs[head] : nil }

    mutating func add(_ seq: UInt64) {
        if counts[seq, default: 0] == 0 {
            if let last = seqs.last, head < seqs.count, seq < last {
                // Not expected (seqs only grow), kept correct all the same.
                let at = seqs[head...].firstIndex { $0 > seq } ?? seqs.count
                seqs.insert(seq, at: at)
            } else {
                seqs.append(seq)
            }
        }
        counts[seq, default: 0] += 1
    }

    mutating func remove(_ seq: UInt64) {
        guard let count = counts[seq] else { return }
        counts[seq] = count > 1 ? count - 1 : nil
        while head < seqs.count, counts[seqs[head]] == nil { head += 1 }
        if head > 64, head * 2 > seqs.count {
            seqs.removeFirst(head)
            head = 0
        }
    }
}
