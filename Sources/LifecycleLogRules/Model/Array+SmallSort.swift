/// Sorting the model's short lists in place. `sort()` costs about a hundred instructions before it
/// compares anything (a uniqueness check, a buffer closure, the choice of algorithm); the lists it
/// sorts at each save and crossing into the background hold a few positions.
extension Array where Element: Comparable {
    /// Sorts the list in place: by insertion when it has at most 16 elements, by `sort()` beyond.
    @inline(__always)
    mutating func sortSmall() {
        let n = count
        if n < 2 { return }
        if n > 16 {
            sort()
            return
        }
        var i = 1
        while i < n {
            let x = self[i]
            var j = i
            while j > 0, x < self[j - 1] {
                self[j] = self[j - 1]
                j -= 1
            }
            if j != i { self[j] = x }
            i += 1
        }
    }
}
