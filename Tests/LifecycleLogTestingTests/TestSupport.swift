import Foundation
import LifecycleLog

/// A unique temporary folder, removed when the value is released.
final class TemporaryFolder: Sendable {
    let path: String

    init(_ name: String = #function) {
        let clean = name.filter { $0.isLetter || $0.isNumber }
        path = "\(FileManager.default.temporaryDirectory.path)/lifecyclelogtesting-\(clean)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)  // `!`: no test runs without it
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// Sessions recorded with a real `LifecycleRecorder` into a real trace file.
enum Session {
    /// A clock that moves 10 ms per reading, so that recorded times do not depend on the machine.
    static func steppingClock() -> LifecycleRecorder.Clock {
        let now = Locked<Double>(0)
        return { now.withLock { $0 += 10; return $0 } }
    }

    /// Opens a recorder on `path` with the stepping clock.
    static func recorder(_ path: String) throws -> LifecycleRecorder {
        try LifecycleRecorder(path: path, clock: steppingClock())
    }

    /// A note window edited, saved and closed, then a clean quit: replay finds nothing.
    static func recordClean(into recorder: LifecycleRecorder) {
        recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "note", kind: .windowGroup)])  // seq 1
        recorder.open(window: "n1", scene: "note")                       // 2
        recorder.phase(.active, window: "n1")                            // 3
        recorder.write(key: "draft", scope: .scene, window: "n1")        // 4
        recorder.save(window: "n1")                                      // 5
        recorder.dismiss(window: "n1")                                   // 6
        recorder.terminate()                                             // 7
    }

    /// A note window closed with an unsaved draft (unsaved-dismiss at seq 5),
    /// then a shared edit left unsaved at quit (unsaved-at-exit at seq 7).
    static func recordTwoBugs(into recorder: LifecycleRecorder) {
        recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "note", kind: .windowGroup)])  // seq 1
        recorder.open(window: "n1", scene: "note")                       // 2
        recorder.phase(.active, window: "n1")                            // 3
        recorder.write(key: "draft", scope: .scene, window: "n1")        // 4
        recorder.dismiss(window: "n1")                                   // 5
        recorder.write(key: "notes", scope: .shared)                     // 6
        recorder.terminate()                                             // 7
    }

    /// Records `body` into a new trace file `name` in `folder`, closes it, and returns its path.
    static func trace(_ name: String, in folder: TemporaryFolder, _ body: (LifecycleRecorder) -> Void) throws -> String {
        let path = folder.file(name)
        let recorder = try recorder(path)
        body(recorder)
        try recorder.close()
        return path
    }

    static let unsavedDismissMessage = "Window n1 was dismissed with unsaved \"draft\" (scene key of window n1). Save a window's state in onDisappear (or when its scene phase becomes .inactive), before SwiftUI discards the scene."
    static let unsavedAtExitMessage = "The app terminated with unsaved \"notes\" (shared). Saving only on .background misses this: a quit on macOS sends no phase change and a kill can come while .inactive. Save when the scene phase becomes .inactive, on applicationWillTerminate, and after edits."
}
