import LifecycleLogSwiftUI
import SwiftUI

/// A note's id, as `WindowGroup(for:)` presents it.
public enum Note {
    public typealias ID = String
}

/// The demo app: a library window and a window per note. Each scene's root records its window
/// (`.lifecycleLog`): open, phases, dismiss; the app-level phase comes with it.
public struct NotesDemoApp: App {
    #if canImport(UIKit) && !os(watchOS)
    @UIApplicationDelegateAdaptor private var delegate: NotesAppDelegate
    #elseif canImport(AppKit)
    @NSApplicationDelegateAdaptor private var delegate: NotesAppDelegate
    #endif
    @Environment(\.scenePhase) private var scenePhase

    public init() {}

    public var body: some Scene {
        WindowGroup(id: "library") {
            LibraryView().lifecycleLog(recorder, scene: "library", appPhase: scenePhase)
        }
        WindowGroup(id: "note", for: Note.ID.self) { $id in
            NoteView(id: id).lifecycleLog(recorder, scene: "note", value: id, appPhase: scenePhase)
        }
    }
}
