/// The demo's switches, each of which plants one bug class that `replay` (and the live check)
/// finds. They live in `@AppStorage`, so every window sees them; the library window shows them.
///
/// | switch | what the app then does | finding |
/// |---|---|---|
/// | ``saveOnlyInBackground`` | saves a draft only when its window reaches `.background`, not on `.inactive` or at a quit | `unsaved-at-exit` after a quit (macOS) or a kill while inactive (iOS) |
/// | ``neverSave`` | never saves a draft | `unsaved-dismiss` when a note window with changes is closed; `unsaved-at-exit` |
/// | ``staleSharedWrites`` | pins a note without reading the pinned list first | `lost-update` when two note windows pin |
/// | ``timerInBackground`` | keeps its autosave timer running in the background | `activity-in-background` |
enum BugSwitches {
    static let saveOnlyInBackground = "demo.saveOnlyInBackground"
    static let neverSave = "demo.neverSave"
    static let staleSharedWrites = "demo.staleSharedWrites"
    static let timerInBackground = "demo.timerInBackground"
}
