/// Makes realistic synthetic traces: many runs of a notes app, multi-window
/// sessions, every event kind, and now and then a bug of each kind. The same
/// options always give the same trace, on every machine.
///
/// This type writes trace format version 1; with ``Options/formatVersion`` 2,
/// ``generate(_:_:)`` writes version 2 traces (an app with its widget and share
/// extension, documents, asynchronous saves, kills, see `TraceGeneratorV2`).
///
/// The app it simulates mostly behaves: it reads a shared key before writing
/// it, saves when a scene goes inactive and before a window is dismissed,
/// stops its timers before the background, and quits cleanly. Each of those
/// habits breaks with the probability ``Options/bugRate`` (in events per
/// thousand opportunities), which gives every rule of the catalogue its
/// findings at a rate a real test session might show.
///
/// ```swift
/// try TraceGenerator.generate(.init(events: 1_000, seed: 7)) { event in
///     print(event.jsonLine)
/// }
/// ```
public struct TraceGenerator: Sendable {
    /// What to generate.
    public struct Options: Sendable, Hashable {
        /// How many events.
        public var events: Int
        /// The random seed.
        public var seed: UInt64
        /// At most this many windows open at once.
        public var windows: Int
        /// How often the app gets a habit wrong, per thousand chances (0 to 1,000).
        /// The default, 5, gives about one finding per 500 events.
        public var bugRate: Int
        /// The trace format version to write: 1 (the default here, so that a seed gives the
        /// same trace as in every earlier release: the benchmarks' traces) or 2 (several
        /// processes, `group` and `document` keys, asynchronous saves, kills, prewarmed,
        /// background, debugger and XCUITest launches, menu-bar apps, immersive spaces).
        /// Any other value is read as 2 when above 2, and as 1 below 1.
        public var formatVersion: Int

        /// Creates options.
        public init(events: Int, seed: UInt64 = 1, windows: Int = 4, bugRate: Int = 5, formatVersion: Int = 1) {
            self.events = events
            self.seed = seed
            self.windows = max(1, windows)
            self.bugRate = min(1000, max(0, bugRate))
            self.formatVersion = min(2, max(1, formatVersion))
        }
    }

    /// Calls `body` with each generated event, in order, without holding the trace in memory.
    /// The events are those of a trace of format version ``Options/formatVersion``, whose
    /// header is `{"format":"lifecycle-trace","version":N}`.
    public static func generate(_ options: Options, _ body: (LifecycleEvent) throws -> Void) rethrows {
        if options.formatVersion >= 2 {
            var g = TraceGeneratorV2(options)
            for _ in 0..<options.events { try body(g.next()) }
            return
        }
        var g = TraceGenerator(options)
        for _ in 0..<options.events { try body(g.next()) }
    }

    struct Window: SimulatedWindow {
        var id: String
        var scene: String
        var value: Int?
        var dirty: Bool = false
    }

    var random: SplitMix64
    let options: Options
    var t: Double = 0
    var queue: [LifecycleEvent] = []
    var queued = 0
    private var running = false
    private var foreground = false
    var platform: Platform = .iOS
    private var declared: [SceneDeclaration] = []
    var open: [Window] = []
    /// Windows open when the last run ended: the next launch may restore them.
    private var lastOpen: [Window] = []
    var nextWindow = 0
    var activities: [(name: String, window: String?)] = []
    var sharedDirty = false
    /// Per shared key: the writer that wrote it last (window id, or "" for the app).
    private var lastWriter: [String: String] = [:]

    init(_ options: Options) {
        self.options = options
        random = SplitMix64(seed: options.seed)
    }

    private static let keys: [(String, StateScope)] = [("notes", .shared), ("library", .shared), ("theme", .app), ("sortOrder", .app)]
    private static let sceneKeys = ["draft", "scrollPosition", "selection"]
    private static let callbacks = ["didReceiveMemoryWarning", "openURL", "didReceiveRemoteNotification", "performFetch"]

    // MARK: The session
    // Randomness, emitting, activities, phase passes and saves: see `SimulatedApp`.

    mutating func step() {
        guard running else { launch(); return }
        guard foreground else { inBackground(); return }
        let roll = random.next() % 1000
        switch roll {
        case 0..<350: edit()
        case 350..<500: read()
        case 500..<560: saveAll()
        case 560..<610: openWindow()
        case 610..<650: dismissWindow()
        case 650..<700: activity()
        case 700..<760:
            var window: String?
            if bug(), !open.isEmpty { window = "gone\(random.next() % 3)" }  // a window that is not open
            emit(.delegate(callback: pick(Self.callbacks), window: window))
        case 760..<790: emit(.mark(label: "step \(random.next() % 100): ✓ \"check\""))
        case 790..<820: windowPhaseFlicker()
        case 820..<900: goToBackground()
        case 900..<910: quit()
        default:
            if bug() { crash() } else if bug() {
                emit(.unknown(name: pick(["gesture", "focusChange"])), extra: [JSONMember("x", .number("1.5"))])
            } else {
                edit()
            }
        }
    }

    private mutating func launch() {
        // Now and then a callback arrives after terminate, before the next launch.
        if bug() { emit(.delegate(callback: "willTerminate", window: nil)) }
        if percent(1) { t += 20_000 }  // the user away
        running = true
        foreground = false
        open.removeAll()
        activities.removeAll()
        sharedDirty = false
        lastWriter.removeAll()
        platform = pick([.iOS, .iPadOS, .macOS, .visionOS])
        declared = [SceneDeclaration(id: "main", kind: .windowGroup),
                    SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID")]
        if platform == .macOS || platform == .visionOS { declared.append(SceneDeclaration(id: "about", kind: .window)) }
        if platform == .macOS || bug() { declared.append(SceneDeclaration(id: "settings", kind: .settings)) }
        let background = percent(5)
        emit(.launch(LifecycleEvent.Launch(platform: platform, scenes: declared, reason: background ? "background" : nil,
                                  app: "com.example.Notes", os: "18.\(random.next() % 3)", build: "\(100 + random.next() % 3)")))
        if background { return }  // a background fetch: it runs in the background and may come forward later
        if bug() { t += 25_000 }  // a slow launch: work in App.init
        // The system restores last session's windows, then the user's first one if none was open.
        let restoring = lastOpen.filter { w in declared.contains { $0.id == w.scene } }.prefix(options.windows)
        lastOpen.removeAll()
        for window in restoring { openWindow(window, restored: true) }
        if open.isEmpty { openWindow() }
        comeForward()
    }

    private mutating func comeForward() {
        foreground = true
        passThroughInactive()
        enterPhase(.active)
    }

    mutating func edit() {
        if !open.isEmpty, percent(45) {
            let i = Int(random.next() % UInt64(open.count))
            emit(.write(key: pick(Self.sceneKeys), scope: .scene, window: open[i].id))
            open[i].dirty = true
            return
        }
        let (key, scope) = pick(Self.keys)
        let window = open.isEmpty || percent(30) ? nil : pick(open).id
        let writer = window ?? ""
        // A good writer reads the key first when someone else changed it since.
        if let last = lastWriter[key], last != writer, !bug() {
            emit(.read(key: key, scope: scope, window: window))
        }
        lastWriter[key] = writer
        emit(.write(key: key, scope: scope, window: window))
        sharedDirty = true
    }

    private mutating func read() {
        if !open.isEmpty, percent(40) {
            emit(.read(key: pick(Self.sceneKeys), scope: .scene, window: pick(open).id))
            return
        }
        let (key, scope) = pick(Self.keys)
        let window = open.isEmpty || percent(30) ? nil : pick(open).id
        emit(.read(key: key, scope: scope, window: window))
        if lastWriter[key] != nil { lastWriter[key] = window ?? "" }
    }

    private mutating func openWindow() {
        guard open.count < options.windows else { dismissWindow(); return }
        let id = freshWindowID()
        // A single-instance scene (Window, Settings) is opened again only by mistake.
        var candidates = declared.filter { d in d.kind == .windowGroup || !open.contains(where: { w in w.scene == d.id }) }
        if bug() { candidates = declared }
        if bug() { candidates = [SceneDeclaration(id: "inspector", kind: .windowGroup)] }  // not declared
        let scene = pick(candidates).id
        var value: Int?
        if scene == "note" {
            value = Int(random.next() % 6)
            // SwiftUI would bring an open note forward; a good app does not open a second one.
            if open.contains(where: { $0.scene == "note" && $0.value == value }), !bug() { return }
        }
        openWindow(Window(id: id, scene: scene, value: value), restored: false)
        emit(.phase(.active, window: id))
    }

    private mutating func openWindow(_ window: Window, restored: Bool) {
        emit(.open(window: window.id, scene: window.scene, value: window.value.map { .integer(Int64($0)) }, restored: restored ? true : nil))
        if !open.contains(where: { $0.id == window.id }) { open.append(Window(id: window.id, scene: window.scene, value: window.value)) }
        if restored { readRestoredDraft(window.id) }
    }

    private mutating func dismissWindow() {
        guard !open.isEmpty else { openWindow(); return }
        let i = Int(random.next() % UInt64(open.count))
        let w = open.remove(at: i)
        if w.dirty, !bug() { emit(.save(window: w.id)) }
        stopActivitiesAndDismiss(w.id)
    }

    private mutating func goToBackground() {
        passThroughInactive()
        // The habit that matters: save when the scene goes inactive.
        if anyDirty, !bug() { saveAll() }
        stopActivitiesForBackground()
        if bug(), let w = open.first {
            // The app-level phase reported before the windows': it disagrees with them.
            emit(.phase(.background))
            emit(.phase(.background, window: w.id))
            for other in open.dropFirst() { emit(.phase(.background, window: other.id)) }
        } else {
            enterPhase(.background)
        }
        foreground = false
    }

    private mutating func inBackground() {
        switch random.next() % 100 {
        case 0..<60:
            if percent(20) { emit(.delegate(callback: "performFetch")) }
            if anyDirty { saveAll() }  // late, but before the app comes back
            comeForward()
        case 60..<85:
            endRun()
            emit(.terminate(reason: percent(50) ? "system" : nil))
        default:
            // Killed while suspended: the next launch comes with no terminate.
            endRun()
            launch()
        }
    }

    private mutating func quit() {
        // On macOS, ⌘Q sends no phase change: a good app saves in applicationWillTerminate.
        if anyDirty, !bug() { saveAll() }
        endRun()
        emit(.terminate(reason: "quit"))
    }

    private mutating func crash() {
        endRun()
        launch()
    }

    private mutating func endRun() {
        lastOpen = percent(50) ? open : []
        running = false
    }
}

extension TraceGenerator: SimulatedApp {}
