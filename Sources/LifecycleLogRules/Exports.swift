// The event model, the JSON Lines codec and the recorder: everything that
// imports LifecycleLogRules sees them, as a test or a live check records and
// checks in one import.
@_exported import LifecycleLogRecorder
