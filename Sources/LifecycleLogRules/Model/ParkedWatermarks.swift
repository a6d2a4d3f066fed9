/// The lowest seq any set-aside process may still anchor a finding at, kept as processes are set
/// aside and taken up, so that the watermark after each event costs the same whatever the number
/// of processes (issue 28: a scan of every set-aside process at each event made replay time grow
/// with the square of the processes).
///
/// A min-heap of (mark, process) with stale entries dropped lazily: a process's entry is current
/// while its stamp matches. Only processes that hold something back (a mark below `.max`) have
/// one, and the heap is rebuilt when stale entries outnumber live ones, so its size follows the
/// processes that hold something back, not the number of times processes were set aside.
struct ParkedWatermarks: Sendable {
    private struct Entry: Sendable {
        var mark: UInt64
        var process: Name
        var stamp: UInt32
    }

    private var heap: [Entry] = []
    /// The stamp of each process's current entry.
    private var current: [Name: UInt32] = [:]
    private var nextStamp: UInt32 = 0

    /// The lowest mark of the processes set aside now; `.max` when none holds anything back.
    var lowest: UInt64 { heap.first?.mark ?? .max }  // the top is always current (dropStale)

    /// `process` is set aside holding back findings from `mark` on (`.max`: none).
    mutating func set(_ process: Name, _ mark: UInt64) {
        guard mark != .max else {
            remove(process)
            return
        }
        nextStamp &+= 1
        current[process] = nextStamp
        push(Entry(mark: mark, process: process, stamp: nextStamp))
        if heap.count > 2 * current.count + 16 { rebuild() }
        dropStale()
    }

    /// `process` is taken up again: it no longer counts here.
    mutating func remove(_ process: Name) {
        guard current.removeValue(forKey: process) != nil else { return }
        dropStale()
    }

    /// Pops stale entries off the top, so that ``lowest`` reads a current one.
    private mutating func dropStale() {
        while let top = heap.first, current[top.process] != top.stamp { pop() }
    }

    private mutating func rebuild() {
        let live = heap.filter { current[$0.process] == $0.stamp }
        heap = []
        heap.reserveCapacity(live.count)
        for entry in live { push(entry) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].mark < heap[parent].mark else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var i = 0
        while true {
            let left = 2 * i + 1, right = left + 1
            var smallest = i
            if left < heap.count, heap[left].mark < heap[smallest].mark { smallest = left }
            if right < heap.count, heap[right].mark < heap[smallest].mark { smallest = right }
            guard smallest != i else { return }
            heap.swapAt(i, smallest)
            i = smallest
        }
    }
}
