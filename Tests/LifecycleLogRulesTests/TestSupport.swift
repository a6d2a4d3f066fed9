// The helpers this target shares with LifecycleLogTests (`events`, `replayFindings`, `assertFindings`,
// `launch`, `repositoryRoot`, the halves of `AppRulesEverywhereTests` and `BoundedFindingTests`) are
// LifecycleLogRulesTestSupport's. `@_exported`: every file of the target sees them, as before the move,
// without an import of its own. (`SplitMix64`, the generator's random numbers, is LifecycleLogRecorder's.)
@_exported import LifecycleLogRulesTestSupport
