/// A small, fast, seedable random number generator (SplitMix64), so that generated traces are the
/// same on every platform. The trace generator (LifecycleLogStorage) draws from it, and the tests
/// of every module use it, so that a seed gives the same numbers everywhere and a failure repeats.
/// Here, in the module every other one imports, because the rules' tests run where the generator's
/// module (liblmdb) does not. Not for apps: `package`.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable package init(seed: UInt64) { state = seed }

    /// Inlinable: the generator, in another module, draws several numbers an event.
    @inlinable package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
