// The event model, the JSON Lines codec and the recorder live in
// LifecycleLogRecorder, which apps link without liblmdb. Everything that
// imports LifecycleLog sees them too, as before the split.
@_exported import LifecycleLogRecorder
