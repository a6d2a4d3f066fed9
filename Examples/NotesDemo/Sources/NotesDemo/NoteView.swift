import Foundation
import LifecycleLogRecorder
import LifecycleLogSwiftUI
import SwiftUI

/// A note's window. Its draft is `@SceneStorage`, recorded as a `scene` key at each change, and
/// saved whenever the window leaves `.active`: on `.inactive` too, because a kill from the app
/// switcher can come while the app is inactive, and a quit on macOS sends no phase change at all.
/// Pinning writes the `shared` list of pinned notes, which every note window writes. The
/// switches of ``BugSwitches`` turn each of these right decisions into its bug.
struct NoteView: View {
    let id: Note.ID?
    @SceneStorage("draft") private var draft = ""
    @AppStorage(BugSwitches.saveOnlyInBackground) private var saveOnlyInBackground = false
    @AppStorage(BugSwitches.neverSave) private var neverSave = false
    @AppStorage(BugSwitches.staleSharedWrites) private var staleSharedWrites = false
    @AppStorage(BugSwitches.timerInBackground) private var timerInBackground = false
    @Environment(\.scenePhase) private var phase
    @Environment(\.lifecycleLogWindow) private var window

    var body: some View {
        TextEditor(text: $draft)
            .lifecycleLogWrites(of: draft, key: "draft", scope: .scene)
            .modifier(ValueChange(of: draft) { NoteStore.update($0, for: id) })
            .modifier(ValueChange(of: phase) { phaseChanged(to: $0) })
            .onAppear { window?.activity("autosave-timer", .start) }
            .toolbar {
                VStack {
                    Button("Save") { saveDraft() }
                    Button("Pin") { pin() }
                }
            }
    }

    private func phaseChanged(to newPhase: ScenePhase) {
        if newPhase == .active {
            window?.activity("autosave-timer", .start)
        } else if !timerInBackground {
            window?.activity("autosave-timer", .stop)
        }
        guard !neverSave else { return }
        if newPhase == .background || (newPhase == .inactive && !saveOnlyInBackground) { saveDraft() }
    }

    private func saveDraft() {
        NoteStore.save(draft, for: id)
        window?.save(keys: ["draft"])
    }

    private func pin() {
        // Read the list as it is now before changing it: another window may have pinned since this
        // one opened. Without the read, this window's change is computed from what it saw at its open.
        if !staleSharedWrites { window?.read(key: "pinned", scope: .shared) }
        NoteStore.pin(id)
        window?.write(key: "pinned", scope: .shared)
        window?.save(keys: ["pinned"])
    }
}

/// `onChange(of:)` with the new value, in the form each system has (the two-parameter form from
/// iOS 17, macOS 14 and visionOS 1; the one-parameter form before, deprecated since).
struct ValueChange<Value: Equatable>: ViewModifier {
    let value: Value
    let action: (Value) -> Void

    init(of value: Value, _ action: @escaping (Value) -> Void) {
        self.value = value
        self.action = action
    }

    func body(content: Content) -> AnyView {
        let action = action
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) {
            return AnyView(content.onChange(of: value) { _, new in action(new) })
        } else {
            return AnyView(content.onChange(of: value, perform: action))
        }
    }
}

/// The notes: what the windows changed, and what is persisted (the demo keeps both in memory; an
/// app writes a file or a `ModelContext` here).
enum NoteStore {
    @MainActor private static var drafts: [Note.ID: String] = [:]
    @MainActor private static var persisted: [Note.ID: String] = [:]
    @MainActor private static var pinned: Set<Note.ID> = []

    /// A window's draft changed (not persisted yet).
    @MainActor static func update(_ draft: String, for id: Note.ID?) {
        drafts[id ?? "untitled"] = draft
    }

    /// Persists a window's draft.
    @MainActor static func save(_ draft: String, for id: Note.ID?) {
        update(draft, for: id)
        persisted[id ?? "untitled"] = draft
    }

    @MainActor static func pin(_ id: Note.ID?) {
        pinned.insert(id ?? "untitled")
    }

    /// The app is ending (`applicationWillTerminate`): persists every draft and records one save
    /// covering every open window's keys. A quit on macOS sends no phase change, so without this
    /// the last edits are lost (`unsaved-at-exit`); ``BugSwitches/saveOnlyInBackground`` skips it.
    @MainActor static func saveEverythingAtExit() {
        guard !UserDefaults.standard.bool(forKey: BugSwitches.saveOnlyInBackground),
              !UserDefaults.standard.bool(forKey: BugSwitches.neverSave) else { return }
        persisted = drafts
        recorder.save()
    }
}
