/// The versions of a process's shared keys (`app`, `shared`, `document` and `group`, by position
/// in ``LifecycleModel/sharedKeys``): each one's current version, and the version it had when each
/// writer still open appeared (a window at its open, the app at its launch), which is what that
/// writer has seen of a key it has not read or written since (``SeenVersions``).
///
/// Issue 28: each opening window used to take a copy of every key's version, so N document
/// windows, each with a key of its own, replayed in quadratic time. Here a key keeps the versions
/// it had before its latest change only while a writer that started between two changes is still
/// open to ask for one, so a window's open costs O(log open writers), a change O(log open writers)
/// amortised, and memory follows the keys and the open writers, not the trace.
///
/// A change at seq `s` is seen by a writer that starts at `s` (a launch resets unsaved keys at
/// its own seq, then the app starts there); nothing else changes a key at a seq a writer starts at.
struct SharedKeyVersions: Sendable {
    private struct Change: Sendable {
        var seq: UInt64
        var version: UInt64
    }

    /// Each key's latest change (seq 0, version 0: none yet).
    private var latest: [Change] = []
    /// Each key's earlier versions that an open writer may still ask for, oldest first; before the
    /// first, the version was 0. Usually empty; a list emptied at a run's end keeps its storage
    /// (at most twice what that key's open writers needed), for the next run's changes.
    private var earlier: [[Change]] = []
    /// The start seqs of the writers still open.
    private var starts = SeqMultiset()
    /// The keys whose ``earlier`` is not empty (maybe emptied since), each once: what the end of
    /// every writer empties, rather than every key.
    private var withEarlier: [Int] = []
    /// Whether each key is in ``withEarlier``. An emptied list keeps its storage for the next run
    /// (a run's end used to free every list and the next run's changes to grow them again), so
    /// its capacity no longer tells.
    private var listed: [Bool] = []

    /// A key not seen before, at version 0.
    mutating func appendKey() {
        latest.append(Change(seq: 0, version: 0))
        earlier.append([])
        listed.append(false)
    }

    /// Key `index`'s current version.
    @inline(__always)
    func current(_ index: Int) -> UInt64 { latest[index].version }

    /// Key `index`'s version just after the event at `seq`, for `seq` the start of an open writer.
    @inline(__always)
    func version(_ index: Int, at seq: UInt64) -> UInt64 {
        let last = latest[index]
        return last.seq <= seq ? last.version : earlierVersion(index, at: seq)
    }

    @inline(never)
    private func earlierVersion(_ index: Int, at seq: UInt64) -> UInt64 {
        let changes = earlier[index]
        var low = 0, high = changes.count  // the first change after `seq`
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].seq <= seq { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : changes[low - 1].version
    }

    /// Key `index` changed to `version` at the event `seq`.
    @inline(__always)
    mutating func set(_ index: Int, _ version: UInt64, at seq: UInt64) {
        let previous = latest[index]
        guard previous.version != version else { return }
        latest[index] = Change(seq: seq, version: version)
        // The previous version answers for writers that started from its change until now; kept
        // only if one of them is still open (and not when it is the 0 that no entry means).
        guard !starts.isEmpty, previous.version != 0 || !earlier[index].isEmpty,
              starts.containsAny(from: previous.seq, below: seq) else { return }
        keep(previous, for: index)
    }

    @inline(never)
    private mutating func keep(_ change: Change, for index: Int) {
        if !listed[index] {
            listed[index] = true
            withEarlier.append(index)
            earlier[index].reserveCapacity(4)
        }
        earlier[index].append(change)
        let count = earlier[index].count
        if count >= 8, count & (count - 1) == 0 { compact(index) }
    }

    /// Drops the earlier versions no open writer can ask for any more (their writers closed): at
    /// 8, 16, 32, … kept versions, so that a key's list stays within twice what open writers need.
    private mutating func compact(_ index: Int) {
        var changes = earlier[index]
        earlier[index] = []
        var kept = 0
        for k in changes.indices {
            let next = k + 1 < changes.count ? changes[k + 1].seq : latest[index].seq
            if starts.containsAny(from: changes[k].seq, below: next) {
                changes[kept] = changes[k]
                kept += 1
            }
        }
        changes.truncate(to: kept)
        earlier[index] = changes
    }

    /// A writer starts at `seq` (a window opens, or the app launches).
    mutating func writerStarted(at seq: UInt64) { starts.insert(seq) }

    /// The writer that started at `seq` is gone (a window closed).
    mutating func writerEnded(startedAt seq: UInt64) { starts.remove(seq) }

    /// Every writer is gone (the run ended: its windows with it).
    mutating func allWritersEnded() {
        starts.removeAll()
        for index in withEarlier {
            earlier[index].removeAllKeepingStorage()
            listed[index] = false
        }
        withEarlier.removeAllKeepingStorage()
    }
}
