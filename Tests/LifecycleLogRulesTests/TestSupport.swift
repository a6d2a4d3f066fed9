// The helpers this target shares with LifecycleLogTests (`events`, `replayFindings`, `assertFindings`,
// `launch`, `repositoryRoot`, the halves of `AppRulesEverywhereTests` and `BoundedFindingTests`) are
// LifecycleLogRulesTestSupport's. `@_exported`: every file of the target sees them, as before the move,
// without an import of its own. What follows is this target's alone.
@_exported import LifecycleLogRulesTestSupport

/// The trace generator's random number generator (SplitMix64, internal to LifecycleLog), copied:
/// a seed gives the same numbers here as there, so a failure repeats.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
