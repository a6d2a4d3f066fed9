/// The file line of each event of a JSON Lines trace, for finding locations
/// that editors and CI can open (`trace.jsonl:18:` for the event at seq 13).
///
/// An event's line is its seq plus the number of blank, comment and header
/// lines before it, an offset that changes only where such lines are. The map
/// keeps a mark only where the offset changes, and drops the marks that no
/// finding still to come can need: findings are anchored at or after the
/// reducer's watermark. So its size is the number of offset changes between
/// the oldest undecided event and the newest one (one or two in a trace with
/// a header and leading comments), not the length of the trace.
package struct LineMap {
    package init() {}

    /// (first seq, line − seq from there on), ascending by seq.
    private var marks: [(seq: UInt64, offset: Int)] = []
    /// The number of marks past which ``needsPruning`` asks for ``forget(below:)``.
    private var pruneAt = 64

    /// Notes that the event at `seq` is on line `line`.
    @inline(__always)
    package mutating func note(seq: UInt64, line: Int) {
        let offset = line - Int(truncatingIfNeeded: seq)
        if marks.last?.offset != offset { marks.append((seq, offset)) }
    }

    /// How many marks the map holds (for tests of its size).
    package var markCount: Int { marks.count }

    /// Whether the map has grown enough to be worth pruning.
    @inline(__always)
    package var needsPruning: Bool { marks.count >= pruneAt }

    /// Drops the marks that no seq at or after `seq` needs.
    package mutating func forget(below seq: UInt64) {
        let keepFrom = lastMark(atOrBefore: seq) ?? 0
        if keepFrom > 0 { marks.removeFirst(keepFrom) }
        // Amortised: marks all still needed (a long-undecided save) are not rescanned at every event.
        pruneAt = max(64, marks.count * 2)
    }

    /// The line of the event at `seq`, or `nil` when no mark covers it.
    package func line(of seq: UInt64) -> Int? {
        lastMark(atOrBefore: seq).map { Int(truncatingIfNeeded: seq) + marks[$0].offset }
    }

    /// The index of the last mark whose seq is at or before `seq`.
    private func lastMark(atOrBefore seq: UInt64) -> Int? {
        var low = 0, high = marks.count  // the answer + 1 lies in [low, high]
        while low < high {
            let mid = (low + high) / 2
            if marks[mid].seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
