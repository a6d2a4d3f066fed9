// The event model, the JSON Lines codec and the error type live in LifecycleLogRecorder; every
// file here reads and writes them, as every file of LifecycleLog did before the split.
@_exported import LifecycleLogRecorder
