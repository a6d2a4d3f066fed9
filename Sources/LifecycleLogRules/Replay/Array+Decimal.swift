extension Array where Element == UInt8 {
    /// Appends `n` in decimal, as `String(n)` writes it, with no `String` made.
    mutating func appendDecimal(_ n: UInt64) {
        var divisor: UInt64 = 1
        while n / divisor >= 10 { divisor *= 10 }  // at most 10^19, below UInt64.max
        repeat {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (n / divisor) % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// Appends `n` in decimal, as `String(n)` writes it, with no `String` made.
    mutating func appendDecimal(_ n: Int) {
        if n < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(n.magnitude))
    }
}
