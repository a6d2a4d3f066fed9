// The event model, the JSON Lines codec and the recorder live in
// LifecycleLogRecorder, which apps link without liblmdb. Everything that
// imports LifecycleLog sees them too, as before the split.
@_exported import LifecycleLogRecorder

// The model, the reducer, the rules and findings live in LifecycleLogRules,
// which apps link without liblmdb, to check their sessions where they run.
@_exported import LifecycleLogRules

// LMDB traces, the stored codec, the collector, import and the generator live in
// LifecycleLogStorage, which needs no rules and so compiles beside LifecycleLogRules.
@_exported import LifecycleLogStorage
