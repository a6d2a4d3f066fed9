/// The trace format version 2 generator behind ``TraceGenerator`` (``TraceGenerator/Options/formatVersion`` 2).
///
/// It simulates a notes app and two extensions on one device: the app (main process) on iOS,
/// iPadOS, macOS or visionOS, with windows, notes, documents (titled and untitled), immersive
/// spaces and a menu-bar mode; a widget (`com.example.notes.widget`) and a share extension
/// (`com.example.notes.share`) that write the App Group keys the app reads; a test runner that
/// leaves marks. Launches are by the user, prewarmed, in the background, under a debugger or
/// under XCUITest; runs end by quitting, `applicationWillTerminate`, kills of every reason, or
/// an unrecorded death while suspended. Saves are instantaneous or asynchronous (`begin`/`end`,
/// inside a background task that may expire).
///
/// With bug rate 0 the app and its extensions have every good habit, so the trace gives no
/// findings: each writer reads a key that another writer changed before it writes it, every
/// change is saved before the scene leaves the foreground, before a window closes, before a
/// kill can come and before the app ends, every asynchronous save ends before its run does,
/// timers stop before the background, and phases pass through `inactive`. Each habit breaks
/// with the bug rate, which gives the rules of the catalogue (and a launch crash loop now and
/// then) their findings.
struct TraceGeneratorV2: SimulatedApp {
    /// One window of the app.
    struct Window: SimulatedWindow {
        var id: String
        var scene: String
        var kind: SceneKind
        var value: JSONValue?
        /// Its instance, unique in the trace: the writer it is.
        var instance: Int
        /// Has unsaved scene keys or document keys (a save naming it covers both).
        var dirty = false
        /// A document window: its document's URL; `nil` for an untitled one.
        var document: String? {
            guard kind == .documentGroup, case .string(let url)? = value else { return nil }
            return url
        }
    }

    /// An extension process: it has no windows, runs in the background and writes `group` keys.
    private struct Extension {
        var name: String
        var running = false
        var dirty = false
        var runs = 0
    }

    /// How the current run of the app was launched.
    private enum LaunchKind { case user, prewarm, background, debugger, harness, accessory }

    var random: SplitMix64
    let options: TraceGenerator.Options
    var t: Double = 0
    var queue: [LifecycleEvent] = []
    var queued = 0

    // The app.
    private var running = false
    private var foreground = false
    private var launchKind = LaunchKind.user
    var platform: Platform = .iOS
    private var declared: [SceneDeclaration] = []
    var open: [Window] = []
    private var lastOpen: [Window] = []
    var nextWindow = 0
    private var instances = 0
    private var runs = 0
    var activities: [(name: String, window: String?)] = []
    var sharedDirty = false
    /// An open asynchronous save of the app: its id, and whether anything was written since its begin.
    private var openSave: (id: String, writtenSince: Bool)?
    private var saves = 0
    /// The background task the app began in the background, if it is running.
    private var backgroundTask = false
    /// Crash-loop runs still to come: the app crashes while restoring its windows.
    private var crashLoop = 0
    /// Per key (`scope:name`, `document:url:name`): the writer that wrote it last.
    private var lastWriter: [String: String] = [:]

    private var extensions = [Extension(name: "com.example.notes.widget"), Extension(name: "com.example.notes.share")]
    private static let runner = "com.example.NotesUITests.xctrunner"
    private static let sharedKeys: [(String, StateScope)] = [("notes", .shared), ("library", .shared), ("theme", .app), ("sortOrder", .app)]
    private static let groupKeys = ["pinned", "inbox"]
    private static let sceneKeys = ["draft", "scrollPosition", "selection"]
    private static let callbacks = ["didReceiveMemoryWarning", "openURL", "didReceiveRemoteNotification", "didBecomeActive", "willResignActive"]

    init(_ options: TraceGenerator.Options) {
        self.options = options
        random = SplitMix64(seed: options.seed ^ 0x5632_5632_5632_5632)
    }

    // MARK: The session
    // Randomness, emitting, activities, phase passes and saves: see `SimulatedApp`.

    mutating func step() {
        if percent(7) { extensionStep(); return }
        guard running else { launch(); return }
        guard foreground else { inBackground(); return }
        if let save = openSave, percent(40) { endSave(save.id); return }
        switch random.next() % 1000 {
        case 0..<330: edit()
        case 330..<460: read()
        case 460..<520: if percent(30) { beginSave() } else { saveAll() }
        case 520..<575: openWindow()
        case 575..<615: dismissWindow()
        case 615..<660: activity()
        case 660..<700:
            var window: String? = open.isEmpty || percent(50) ? nil : pick(open).id
            if bug() { window = "gone\(random.next() % 3)" }  // a window that is not open
            emit(.delegate(callback: pick(Self.callbacks), window: window))
        case 700..<730: emit(.mark(label: "step \(random.next() % 100): ✓ \"check\""), process: launchKind == .harness ? Self.runner : nil)
        case 730..<760: windowPhaseFlicker()
        case 760..<860: goToBackground()
        case 860..<880: quit()
        default:
            if bug() { crash() } else if bug() {
                emit(.unknown(name: pick(["gesture", "focusChange"])))
            } else if bug() {
                killWhileActive(reason: pick(["abort", "termination"]))  // a kill of an unknown reason
            } else {
                edit()
            }
        }
    }

    // MARK: Launching

    private mutating func launch() {
        if percent(1) { t += 20_000 }  // the user away
        running = true
        foreground = false
        runs += 1
        open.removeAll()
        activities.removeAll()
        sharedDirty = false
        openSave = nil
        backgroundTask = false
        if crashLoop == 0 { platform = pick([.iOS, .iPadOS, .macOS, .visionOS]) }
        let roll = random.next() % 100
        switch roll {
        case 0..<8: launchKind = .debugger
        case 8..<16: launchKind = .harness
        case 16..<24: launchKind = platform == .iOS || platform == .iPadOS ? .prewarm : .user
        case 24..<30: launchKind = .background
        case 30..<40: launchKind = platform == .macOS ? .accessory : .user
        default: launchKind = .user
        }
        if crashLoop > 0 { launchKind = .user }
        declared = scenes()
        let reason: String? = switch launchKind {
        case .prewarm: "prewarm"
        case .background: "background"
        default: percent(20) ? "user" : nil
        }
        emit(.launch(LifecycleEvent.Launch(platform: platform, scenes: declared, reason: reason, app: "com.example.Notes",
                                  os: "26.\(random.next() % 2)", build: "\(200 + random.next() % 2)",
                                  debugger: launchKind == .debugger ? true : nil,
                                  harness: launchKind == .harness ? "xcuitest" : nil,
                                  activation: launchKind == .accessory ? .accessory : (platform == .macOS && percent(20) ? .regular : nil))))
        if launchKind == .harness { emit(.mark(label: "testEditNote: launched"), process: Self.runner) }
        switch launchKind {
        case .prewarm, .background:
            if launchKind == .background { backgroundFetch() }
            return  // it waits in the background; the user may bring it forward later (inBackground)
        default:
            break
        }
        if bug() {
            // A hang in App.init: the watchdog ends the launch, or the app comes up late.
            t += 25_000
            if percent(50) { endRun(); emit(.kill(reason: "watchdog", signal: 9)); return }
        }
        // The system restores last session's windows, then the user's first one if none was open.
        let restoring = launchKind == .user ? lastOpen.filter { w in declared.contains { $0.id == w.scene } && w.kind != .immersiveSpace }.prefix(options.windows) : []
        if !restoring.isEmpty, crashLoop == 0, bug() { crashLoop = 2 }
        let crashing = crashLoop > 0 && !restoring.isEmpty
        if crashLoop > 0 && restoring.isEmpty { crashLoop = 0 }
        if !crashing { lastOpen.removeAll() }
        for window in restoring { restore(window) }
        if crashing {
            // The app crashes while restoring its windows (a saved value it cannot decode), and is relaunched.
            crashLoop -= 1
            endRun()
            // Until the user gives up on restoring (holds Shift at the launch after the last crash).
            lastOpen = crashLoop > 0 ? Array(restoring) : []
            if percent(50) { emit(.kill(reason: "crash", signal: 6)) }
            return
        }
        if open.isEmpty { _ = openWindow(in: declared[0], value: nil) }
        comeForward()
    }

    /// The scenes the app declares on this platform.
    private mutating func scenes() -> [SceneDeclaration] {
        if launchKind == .accessory {
            return [SceneDeclaration(id: "status", kind: .menuBarExtra), SceneDeclaration(id: "settings", kind: .settings)]
        }
        var scenes = [SceneDeclaration(id: "main", kind: .windowGroup),
                      SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID"),
                      SceneDeclaration(id: "doc", kind: .documentGroup, presentedType: "TextFile")]
        if platform == .macOS || platform == .visionOS { scenes.append(SceneDeclaration(id: "about", kind: .window)) }
        if platform == .macOS { scenes.append(SceneDeclaration(id: "settings", kind: .settings)) }
        if platform == .visionOS {
            scenes.append(SceneDeclaration(id: "theater", kind: .immersiveSpace))
            scenes.append(SceneDeclaration(id: "studio", kind: .immersiveSpace))
        }
        if bug() { scenes.append(SceneDeclaration(id: "prefs", kind: .settings)) }  // unsupported outside macOS
        return scenes
    }

    /// A background launch for a push: the app refreshes a key and saves it.
    private mutating func backgroundFetch() {
        emit(.delegate(callback: "didReceiveRemoteNotification"))
        write(key: "lastFetch", scope: .app, window: nil)
        if !bug() { saveAll() }
    }

    private mutating func restore(_ window: Window) {
        instances += 1
        let w = Window(id: window.id, scene: window.scene, kind: window.kind, value: window.value, instance: instances)
        emit(.open(window: w.id, scene: w.scene, value: w.value, restored: true))
        open.append(w)
        readRestoredDraft(w.id)
    }

    /// The app (its windows, then the app-level phase) becomes active, through inactive.
    private mutating func comeForward() {
        if backgroundTask { stopBackgroundTask() }
        foreground = true
        passThroughInactive()
        enterPhase(.active)
    }

    // MARK: Keys

    private func writerID(_ window: String?) -> String {
        if let window, let w = open.first(where: { $0.id == window }) { return "w\(w.instance)" }
        return "app\(runs)"
    }

    /// A write to a key, read first when another writer changed it since this one last saw it.
    private mutating func write(key: String, scope: StateScope, window: String?, document: String? = nil, name: String? = nil) {
        let identity = scope == .document ? "document:\(name ?? "")/\(key)" : "\(scope.rawValue):\(key)"
        let writer = writerID(window)
        if scope != .scene, let last = lastWriter[identity], last != writer, !bug() {
            emit(.read(key: key, scope: scope, window: window, document: document))
        }
        if scope != .scene { lastWriter[identity] = writer }
        emit(.write(key: key, scope: scope, window: window, document: document))
        if let save = openSave { openSave = (save.id, true) }
    }

    mutating func edit() {
        guard !open.isEmpty else { openWindow(); return }
        let i = Int(random.next() % UInt64(open.count))
        let w = open[i]
        switch random.next() % 100 {
        case 0..<35:
            emit(.write(key: pick(Self.sceneKeys), scope: .scene, window: w.id))
            if let save = openSave { openSave = (save.id, true) }
            open[i].dirty = true
        case 35..<55 where w.kind == .documentGroup:
            // The window's document: its own file, or an untitled document of its own.
            let document = w.document
            write(key: pick(["body", "title"]), scope: .document, window: w.id, document: document != nil && percent(30) ? document : nil,
                  name: document ?? "untitled:\(w.instance)")
            open[i].dirty = true
        case 55..<65:
            // Pinning a note in the App Group store the widget shows.
            write(key: pick(Self.groupKeys), scope: .group, window: percent(50) ? w.id : nil)
            sharedDirty = true
        default:
            let (key, scope) = pick(Self.sharedKeys)
            write(key: key, scope: scope, window: percent(30) ? nil : w.id)
            sharedDirty = true
        }
    }

    private mutating func read() {
        guard !open.isEmpty else { return }
        let w = pick(open)
        switch random.next() % 100 {
        case 0..<40:
            emit(.read(key: pick(Self.sceneKeys), scope: .scene, window: w.id))
        case 40..<55:
            let key = pick(Self.groupKeys)
            emit(.read(key: key, scope: .group, window: w.id))
            if lastWriter["group:\(key)"] != nil { lastWriter["group:\(key)"] = writerID(w.id) }
        default:
            let (key, scope) = pick(Self.sharedKeys)
            let window = percent(30) ? nil : w.id
            emit(.read(key: key, scope: scope, window: window))
            if lastWriter["\(scope.rawValue):\(key)"] != nil { lastWriter["\(scope.rawValue):\(key)"] = writerID(window) }
        }
    }

    // MARK: Saves

    /// An asynchronous save starts (`ModelContext.save()` in a `Task`).
    private mutating func beginSave() {
        guard openSave == nil else { return }
        saves += 1
        let id = "s\(saves)"
        emit(.save(store: "SwiftData", stage: .begin, id: id))
        openSave = (id, false)
    }

    private mutating func endSave(_ id: String) {
        emit(.save(store: "SwiftData", stage: .end, id: id))
        // Writes made after the begin are still unsaved.
        if openSave?.writtenSince == false { markSaved() }
        openSave = nil
    }

    /// Everything is saved, as a good app has it before it may be suspended or ended.
    private mutating func settle() {
        if let save = openSave { endSave(save.id) }
        if anyDirty { saveAll() }
    }

    // MARK: Windows

    private mutating func openWindow() {
        guard open.count < options.windows else { dismissWindow(); return }
        var candidates = declared.filter { d in
            switch d.kind {
            case .windowGroup, .documentGroup: return true
            case .immersiveSpace: return !open.contains { $0.kind == .immersiveSpace }
            default: return !open.contains { $0.scene == d.id }
            }
        }
        if bug() { candidates = declared }  // a second Settings window, or a second immersive space
        guard !candidates.isEmpty else { dismissWindow(); return }
        var scene = pick(candidates)
        if bug() { scene = SceneDeclaration(id: "inspector", kind: .windowGroup) }  // not declared
        var value: JSONValue?
        if scene.id == "note" {
            let n = Int64(random.next() % 6)
            value = .integer(n)
        } else if scene.kind == .documentGroup, percent(60) {
            value = .string("file:///Users/me/Notes/\(pick(["plan", "ideas", "groceries", "Résumé"])).txt")
        }
        // SwiftUI would bring an open note or document forward; a good app does not open a second one.
        if let value, open.contains(where: { $0.scene == scene.id && $0.value == value }), !bug() { return }
        let id = openWindow(in: scene, value: value)
        emit(.phase(.active, window: id))
    }

    /// Opens a window of `scene` (a fresh id, or now and then by mistake one still open); returns its id.
    private mutating func openWindow(in scene: SceneDeclaration, value: JSONValue?) -> String {
        let id = freshWindowID()
        emit(.open(window: id, scene: scene.id, value: value))
        instances += 1
        if !open.contains(where: { $0.id == id }) {
            open.append(Window(id: id, scene: scene.id, kind: scene.kind, value: value, instance: instances))
        }
        return id
    }

    private mutating func dismissWindow() {
        // With one window allowed and open, opening another would come straight back here.
        guard open.count > 1 else { if open.count < options.windows { openWindow() } else { edit() }; return }
        let i = Int(random.next() % UInt64(open.count))
        if let save = openSave { endSave(save.id) }
        let w = open[i]
        if w.dirty, !bug() { emit(.save(window: w.id)); sharedDirty = false; open[i].dirty = false }
        open.remove(at: i)
        stopActivitiesAndDismiss(w.id)
    }

    // MARK: Background and the end of a run

    private mutating func goToBackground() {
        passThroughInactive()
        // The habit that matters: save when the scene goes inactive.
        if !bug() { settle() }
        stopActivitiesForBackground()
        enterPhase(.background)
        foreground = false
        if percent(30) {
            // A background task around a last asynchronous save.
            emit(.activity(name: "bgTask", state: .start))
            backgroundTask = true
            if percent(50) {
                beginSave()
                if !bug(), let save = openSave { endSave(save.id) }
            }
        }
    }

    private mutating func stopBackgroundTask() {
        // The expiration handler runs when the task outlives the time granted; a good app ended its save before.
        emit(.activity(name: "bgTask", state: percent(20) ? .expire : .stop))
        backgroundTask = false
    }

    private mutating func inBackground() {
        switch random.next() % 100 {
        case 0..<55:
            if open.isEmpty { _ = openWindow(in: declared[0], value: nil) }
            settle()
            comeForward()
        case 55..<65:
            if backgroundTask { stopBackgroundTask() }
            endWithSave { $0.emit(.terminate(reason: "system")) }
        case 65..<85:
            // The system reclaims the suspended app (jetsam), or the user swipes it away.
            let reason = pick(["jetsam", "user"])
            endWithSave { $0.emit(.kill(reason: reason, signal: $0.percent(50) ? 9 : nil)) }
        default:
            // Killed while suspended with nothing recorded: the next launch comes.
            endWithSave { _ in }
            launch()
        }
    }

    /// The run ends: what is unsaved is saved first (unless the app gets it wrong), then `end` is emitted.
    private mutating func endWithSave(_ end: (inout TraceGeneratorV2) -> Void) {
        if !bug() {
            settle()
        } else if let save = openSave, percent(50) {
            endSave(save.id)  // the save ends, but what was unsaved stays so; otherwise it never finishes
        }
        if backgroundTask {
            // Time runs out while an asynchronous save is still open: the expiration handler runs.
            emit(.activity(name: "bgTask", state: openSave != nil ? .expire : .stop))
            backgroundTask = false
        }
        endRun()
        end(&self)
    }

    private mutating func quit() {
        switch launchKind {
        case .harness:
            endWithSave { $0.emit(.kill(reason: "harness", signal: 9, by: "XCUITest")) }
            emit(.mark(label: "testEditNote: passed"), process: Self.runner)
        case .debugger:
            // Xcode's Stop: recorded by a harness now and then, else nothing (the next launch comes).
            if percent(50) { endWithSave { $0.emit(.kill(reason: "debugger", by: "Xcode")) } } else { endWithSave { _ in } }
        default:
            guard platform == .macOS else { goToBackground(); return }
            // ⌘Q sends no phase change: a good app saves in applicationWillTerminate.
            if percent(50) {
                emit(.delegate(callback: "willTerminate"))
                if !bug() { settle() }
                endRun()
                if percent(60) { emit(.terminate(reason: "quit")) }  // else exit(0) after the callback
            } else if percent(15) {
                endWithSave { $0.emit(.kill(reason: "user")) }  // Force Quit
            } else {
                endWithSave { $0.emit(.terminate(reason: "quit")) }
            }
        }
    }

    private mutating func crash() {
        endRun()
        if percent(50) { emit(.kill(reason: "crash", signal: 11)) }
        launch()
    }

    private mutating func killWhileActive(reason: String) {
        endRun()
        emit(.kill(reason: reason))
    }

    private mutating func endRun() {
        lastOpen = percent(60) ? open : []
        running = false
        foreground = false
        openSave = nil
        backgroundTask = false
    }

    // MARK: Extensions

    /// The widget or the share extension does one thing: launch, update an App Group key, or end.
    private mutating func extensionStep() {
        let i = Int(random.next() % UInt64(extensions.count))
        let name = extensions[i].name
        guard extensions[i].running else {
            if bug() {
                emit(.write(key: "pinned", scope: .group), process: name)  // after its run ended
                return
            }
            extensions[i].running = true
            extensions[i].runs += 1
            emit(.launch(LifecycleEvent.Launch(platform: platform == .macOS ? .macOS : .iOS, scenes: [], reason: "background")), process: name)
            return
        }
        switch random.next() % 100 {
        case 0..<60:
            let key = i == 0 ? "pinned" : "inbox"
            let identity = "group:\(key)"
            let writer = "\(name)#\(extensions[i].runs)"
            if lastWriter[identity] != writer, !bug() {
                emit(.read(key: key, scope: .group), process: name)
            }
            lastWriter[identity] = writer
            emit(.write(key: key, scope: .group), process: name)
            extensions[i].dirty = true
            if !bug() { saveExtension(i) }
        case 60..<75:
            if extensions[i].dirty, !bug() { saveExtension(i) }
            extensions[i].running = false
            extensions[i].dirty = false
            emit(.kill(reason: "jetsam", signal: 9), process: name)  // the system reclaims an idle extension
        case 75..<85:
            if extensions[i].dirty, !bug() { saveExtension(i) }
            extensions[i].running = false
            extensions[i].dirty = false
            emit(.terminate(reason: nil), process: name)
        default:
            emit(.read(key: i == 0 ? "pinned" : "inbox", scope: .group), process: name)
        }
    }

    private mutating func saveExtension(_ i: Int) {
        let name = extensions[i].name
        if i == 1 {
            // The share extension writes the shared container asynchronously, paired by window and store.
            emit(.save(store: "group.com.example.notes", stage: .begin), process: name)
            emit(.save(store: "group.com.example.notes", stage: .end), process: name)
        } else {
            emit(.save(store: "group.com.example.notes"), process: name)
        }
        extensions[i].dirty = false
    }
}
