import LifecycleLogRecorder
import LifecycleLogSwiftUI
import SwiftUI

// The launch glue: the one place the demo talks to UIKit or AppKit. Every decision (why the app
// launched, what a discarded session closes) lives in LifecycleLogRecorder's tested types;
// spec/apple-order.md lists what it assumes about Apple's order.

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Records the launch from `didFinishLaunchingWithOptions` (not `App.init`, which prewarming may
/// run long before the user opens the app) and the windows closed in the app switcher.
public final class NotesAppDelegate: NSObject, UIApplicationDelegate {
    public func application(_ application: UIApplication,
                            didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        SceneRecorder.shared(for: recorder).recordLaunch(of: application, options: options, platform: .current, scenes: sceneDeclarations,
                                                         app: "com.example.notes-demo")
        return true
    }

    public func application(_ application: UIApplication, didDiscardSceneSessions sessions: Set<UISceneSession>) {
        SceneRecorder.shared(for: recorder).discard(sessions)
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        NoteStore.saveEverythingAtExit()
    }
}
#elseif canImport(AppKit)
import AppKit

/// Records the launch before SwiftUI restores windows; a quit (Cmd-Q) sends no phase change, so
/// `recordLaunch` records its `willTerminate`.
public final class NotesAppDelegate: NSObject, NSApplicationDelegate {
    public func applicationWillFinishLaunching(_ notification: Notification) {
        // `swift run` starts the demo without an app bundle: ask for a Dock icon and a menu bar,
        // as a bundled app has them. (An app in an Xcode project does not need this line.)
        NSApplication.shared.setActivationPolicy(.regular)
        SceneRecorder.shared(for: recorder).recordLaunch(of: NSApplication.shared, scenes: sceneDeclarations, app: "com.example.notes-demo")
    }

    /// A quit (Cmd-Q) sends no phase change: the last chance to save.
    public func applicationWillTerminate(_ notification: Notification) {
        NoteStore.saveEverythingAtExit()
    }
}
#endif
