// The live check itself, the rules and the recorder: one import for an app's debug build.
@_exported import LifecycleLogRules
