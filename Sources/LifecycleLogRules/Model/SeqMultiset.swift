/// Seqs, sorted, each as many times as it was inserted: the start seqs of the writers still open
/// (``SharedKeyVersions``) and the seqs the windows' background saves wait at
/// (``LifecycleModel/pendingBackgroundSeqs``).
///
/// Seqs are inserted in ascending order (each is the seq of the event being applied), so an
/// insert appends. A removal finds its seq by binary search and closes the gap from the nearer
/// end: O(1) for the oldest or the newest (the usual cases: windows dismissed in the order they
/// opened, or the last one opened; saves decided oldest first), O(min(i, count − i)) element moves
/// in the worst case. The array holds only what is inserted and not removed, plus at most as
/// many removed slots at its front, so its memory follows the open windows, not the trace.
struct SeqMultiset: Sendable {
    private var seqs: [UInt64] = []
    /// `seqs[..<head]` are removed.
    private var head = 0

    var isEmpty: Bool { head == seqs.count }
    var count: Int { seqs.count - head }

    /// The lowest seq, or `nil`.
    var lowest: UInt64? { isEmpty ? nil : seqs[head] }

    mutating func insert(_ seq: UInt64) {
        if isEmpty, head > 0 {
            seqs.removeAllKeepingStorage()
            head = 0
        }
        if let last = seqs.last, !isEmpty, seq < last {
            // Not expected (seqs only grow), kept correct all the same.
            seqs.insert(seq, at: firstIndex(atLeast: seq + 1))
        } else {
            seqs.append(seq)
        }
    }

    /// Removes one `seq`; nothing when there is none.
    mutating func remove(_ seq: UInt64) {
        let i = firstIndex(atLeast: seq)
        guard i < seqs.count, seqs[i] == seq else { return }
        if i - head < seqs.count - 1 - i {
            var j = i
            while j > head {
                seqs[j] = seqs[j - 1]
                j -= 1
            }
            head += 1
            if head > 64, head * 2 > seqs.count {
                seqs.removeFirst(head)
                head = 0
            }
        } else {
            seqs.remove(at: i)
        }
    }

    mutating func removeAll() {
        seqs.removeAllKeepingStorage()
        head = 0
    }

    /// Whether some seq lies in `lower..<upper`.
    func containsAny(from lower: UInt64, below upper: UInt64) -> Bool {
        let i = firstIndex(atLeast: lower)
        return i < seqs.count && seqs[i] < upper
    }

    /// The position of the first seq at least `seq` (`seqs.count`: none).
    private func firstIndex(atLeast seq: UInt64) -> Int {
        var low = head, high = seqs.count
        while low < high {
            let mid = (low + high) / 2
            if seqs[mid] < seq { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
