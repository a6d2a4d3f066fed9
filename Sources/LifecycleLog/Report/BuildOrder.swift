/// The order of build strings (and OS versions) in `replay summary`: numeric-aware, so that
/// build `9` comes before `10` and `1.9` before `1.10`, the same on every machine (no locale).
///
/// A string is read as runs of ASCII digits and runs of anything else. Two strings compare run
/// by run: two digit runs by their value (leading zeros dropped, then the longer number is the
/// larger, then digit by digit, so no number is too long), a digit run before any other run,
/// two other runs by their UTF-8 bytes; a string that ends first (every run equal so far) comes
/// first. Strings that are still equal (`007` and `7`) are ordered by their UTF-8 bytes, so the
/// order is total and two different strings never tie.
///
/// ```swift
/// ["10", "9", "1.10", "1.9"].sorted(by: BuildOrder.precedes)  // ["1.9", "1.10", "9", "10"]
/// ```
package enum BuildOrder {
    /// Whether `a` comes before `b`.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            let (endX, digitsX) = run(x, from: i)
            let (endY, digitsY) = run(y, from: j)
            if digitsX != digitsY { return digitsX }
            if digitsX {
                let order = compareNumbers(x[i..<endX], y[j..<endY])
                if order != 0 { return order < 0 }
            } else if !x[i..<endX].elementsEqual(y[j..<endY]) {
                return x[i..<endX].lexicographicallyPrecedes(y[j..<endY])
            }
            i = endX
            j = endY
        }
        if (i < x.count) != (j < y.count) { return j < y.count }
        return x.lexicographicallyPrecedes(y)
    }

    /// The end of the run that starts at `start`, and whether it is a run of digits.
    private static func run(_ bytes: [UInt8], from start: Int) -> (end: Int, digits: Bool) {
        let digits = isDigit(bytes[start])
        var end = start + 1
        while end < bytes.count && isDigit(bytes[end]) == digits { end += 1 }
        return (end, digits)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// -1, 0 or 1 as the number written `a` is below, equal to or above the number written `b`.
    private static func compareNumbers(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        let x = a.drop { $0 == 0x30 }, y = b.drop { $0 == 0x30 }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }
}
