import LifecycleLogRecorder
import LifecycleLogSwiftUI
import SwiftUI

/// A note's window. Its draft is `@SceneStorage`, recorded as a `scene` key at each change, and
/// saved whenever the window leaves `.active`: on `.inactive` too, because a kill from the app
/// switcher can come while the app is inactive, and a quit on macOS sends no phase change at all
/// (`replay --assert` flags a draft saved only on `.background`: `missed-background-save`).
struct NoteView: View {
    let id: Note.ID?
    @SceneStorage("draft") private var draft = ""
    @Environment(\.scenePhase) private var phase
    @Environment(\.lifecycleLogWindow) private var window

    var body: some View {
        TextEditor(text: $draft)
            .lifecycleLogWrites(of: draft, key: "draft", scope: .scene)
            .onChange(of: phase) { newPhase in
                if newPhase != .active { saveDraft() }
            }
            .toolbar { Button("Save") { saveDraft() } }
    }

    private func saveDraft() {
        NoteStore.save(draft, for: id)
        window?.save(keys: ["draft"])
    }
}

/// Where drafts are persisted (the demo keeps them in memory; an app writes a file or a
/// `ModelContext` here).
enum NoteStore {
    @MainActor private static var drafts: [Note.ID: String] = [:]

    @MainActor static func save(_ draft: String, for id: Note.ID?) {
        drafts[id ?? "untitled"] = draft
    }
}
