import LifecycleLogRecorder
#if DEBUG
import LifecycleLogLive
import LifecycleLogRules
#endif

/// Where the demo's lifecycle events go: a collector on the Mac (`replay record --listen
/// 127.0.0.1:7777 session.lmdb`), and a spool in the app's container for whatever the collector has
/// not acknowledged (README.md, recipes 1 and 3). The simulator shares the Mac's network. In a
/// debug build the rules also run in the app (`LiveCheck`): each finding is a runtime warning in
/// Xcode, and a line in the system log, the moment the rules decide it.
let recorder: LifecycleRecorder = {
    let sink = CollectorSink(host: "127.0.0.1", port: 7777, fallback: SpoolSink(path: spoolPath))
    #if DEBUG
    if let live = try? LiveCheck(forwardingTo: sink, reporters: LiveCheck.standardReporters()) {
        return LifecycleRecorder(sink: live)
    }
    #endif
    return LifecycleRecorder(sink: sink)
}()

#if canImport(AppKit) && !canImport(UIKit)
private let spoolPath = SpoolSink.defaultPath(platform: .macOS)
#else
private let spoolPath = SpoolSink.defaultPath()
#endif

/// The app's scenes, in the order of `NotesDemoApp.body`: the launch event declares them, so that
/// `replay` knows which windows may open (`undeclared-scene`).
let sceneDeclarations = [SceneDeclaration(id: "library", kind: .windowGroup),
                         SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID")]
