/// Emptying the model's lists while keeping their storage, cheaply. `removeAll(keepingCapacity:)`
/// and `removeLast(_:)` go through the generic `replaceSubrange`: about a hundred instructions,
/// even for an empty list or one element, where the model's lists lose none or one at most events.
extension Array {
    /// Removes every element, keeping the storage; nothing to do for an empty list. A list of a
    /// few elements (most of the model's) loses them one at a time, about twenty instructions each.
    @inline(__always)
    mutating func removeAllKeepingStorage() {
        truncate(to: 0)
    }

    /// Drops the elements from `newCount` on, keeping the storage: a few one at a time.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        let excess = count - newCount
        if excess <= 0 { return }
        if excess <= 4 {
            for _ in 0..<excess { removeLast() }
        } else {
            removeLast(excess)
        }
    }
}
