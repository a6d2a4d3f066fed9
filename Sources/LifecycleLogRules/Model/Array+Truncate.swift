extension Array {
    /// Drops the elements from `newCount` on, keeping the storage. A few are removed one at a
    /// time: `removeLast(_:)` and `removeAll(keepingCapacity:)` go through the generic
    /// `replaceSubrange`, about a hundred instructions even for none, where the model's lists
    /// lose none or one at most events.
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
