import SwiftUI

/// The library window: what the demo shows first, with the switches that plant each bug class
/// (``BugSwitches``).
struct LibraryView: View {
    @AppStorage(BugSwitches.saveOnlyInBackground) private var saveOnlyInBackground = false
    @AppStorage(BugSwitches.neverSave) private var neverSave = false
    @AppStorage(BugSwitches.staleSharedWrites) private var staleSharedWrites = false
    @AppStorage(BugSwitches.timerInBackground) private var timerInBackground = false

    var body: some View {
        VStack {
            Text("Open two notes in windows of their own, type, pin, and switch away. Then: replay session.lmdb")
            Toggle("Save drafts only in the background (unsaved-at-exit)", isOn: $saveOnlyInBackground)
            Toggle("Never save drafts (unsaved-dismiss)", isOn: $neverSave)
            Toggle("Pin without reading the pinned list first (lost-update)", isOn: $staleSharedWrites)
            Toggle("Keep the autosave timer running in the background (activity-in-background)", isOn: $timerInBackground)
        }
    }
}
