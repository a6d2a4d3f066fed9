/// Makes realistic synthetic traces: many runs, multi-window sessions, every
/// event kind, and a share of each kind of bug. The same options always give
/// the same trace, on every machine.
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

        /// Creates options.
        public init(events: Int, seed: UInt64 = 1, windows: Int = 4) {
            self.events = events
            self.seed = seed
            self.windows = max(1, windows)
        }
    }

    /// Calls `body` with each generated event, in order, without holding the trace in memory.
    public static func generate(_ options: Options, _ body: (Event) throws -> Void) rethrows {
        var g = TraceGenerator(options)
        for _ in 0..<options.events { try body(g.next()) }
    }

    private var random: SplitMix64
    private let options: Options
    private var t: Double = 0
    private var running = false
    private var platform: Platform = .iOS
    private var open: [(id: String, scene: String, value: Int?)] = []
    private var nextWindow = 1
    private var activities: [(name: String, window: String?)] = []

    init(_ options: Options) {
        self.options = options
        random = SplitMix64(seed: options.seed)
    }

    private static let keys: [(String, StateScope)] = [("notes", .shared), ("library", .shared), ("theme", .app), ("sortOrder", .app)]
    private static let sceneKeys = ["draft", "scrollPosition", "selection"]
    private static let callbacks = ["didBecomeActive", "willResignActive", "didEnterBackground", "willEnterForeground",
                                    "didReceiveMemoryWarning", "openURL", "didReceiveRemoteNotification"]

    private func scenes(for platform: Platform) -> [SceneDeclaration] {
        var scenes = [SceneDeclaration(id: "main", kind: .windowGroup),
                      SceneDeclaration(id: "note", kind: .windowGroup, presentedType: "Note.ID")]
        if platform == .macOS || platform == .visionOS { scenes.append(SceneDeclaration(id: "about", kind: .window)) }
        if platform == .macOS { scenes.append(SceneDeclaration(id: "settings", kind: .settings)) }
        return scenes
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    /// A random open window, chosen by this generator alone (not the standard
    /// library's `randomElement`, whose algorithm may change between releases).
    private mutating func pickWindow() -> (id: String, scene: String, value: Int?)? {
        open.isEmpty ? nil : open[Int(random.next() % UInt64(open.count))]
    }

    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 1000 < percent * 10 }

    mutating func next() -> Event {
        t += Double(random.next() % 400 + 1)
        if chance(1) { t += 25_000 }  // a long pause: a slow launch, a user away
        guard running else {
            // Now and then a callback arrives after terminate (an event before the next launch).
            return chance(5) ? Event(t: t, .delegate(callback: "willTerminate", window: nil)) : launch()
        }
        let roll = random.next() % 1000
        switch roll {
        case 0..<8:
            running = false
            return Event(t: t, .terminate(reason: chance(50) ? "quit" : nil))
        case 8..<14:
            return launch()  // the previous run was killed
        case 14..<16:
            return Event(t: t, .unknown(name: pick(["gesture", "focusChange"])), extraFields: [JSONMember("x", .number("1.5"))])
        case 16..<90:
            if open.count >= options.windows, let w = pickWindow() { return dismiss(w.id) }
            return openWindow()
        case 90..<140:
            if let w = pickWindow() { return dismiss(w.id) }
            return openWindow()
        case 140..<420:
            return phase()
        case 420..<560:
            return keyEvent(write: true)
        case 560..<660:
            return keyEvent(write: false)
        case 660..<800:
            let window = open.isEmpty || chance(40) ? nil : pickWindow()?.id
            let keys: [String]? = chance(30) ? [pick(Self.keys).0] : nil
            return Event(t: t, .save(keys: keys, window: window, store: chance(50) ? "SwiftData" : nil))
        case 800..<880:
            if !activities.isEmpty, chance(50) {
                let a = activities.remove(at: Int(random.next() % UInt64(activities.count)))
                return Event(t: t, .activity(name: a.name, state: .stop, window: a.window))
            }
            let window = open.isEmpty || chance(30) ? nil : pickWindow()?.id
            let name = pick(["timer", "animation", "audio", "location"])
            activities.append((name, window))
            return Event(t: t, .activity(name: name, state: .start, window: window))
        case 880..<950:
            return Event(t: t, .delegate(callback: pick(Self.callbacks), window: nil))
        default:
            return Event(t: t, .mark(label: "step \(random.next() % 100): ✓ \"check\""))
        }
    }

    private mutating func launch() -> Event {
        running = true
        open.removeAll()
        activities.removeAll()
        platform = pick([.iOS, .iPadOS, .macOS, .visionOS])
        let background = chance(10)
        return Event(t: t, .launch(Event.Launch(platform: platform, scenes: scenes(for: platform),
                                                reason: background ? "background" : nil, app: "com.example.Notes",
                                                os: "18.\(random.next() % 3)", build: "\(100 + random.next() % 3)")))
    }

    private mutating func openWindow() -> Event {
        // Window ids come from a bounded pool, as SwiftUI's scene identifiers are reused
        // across a session and restorations; now and then one that is still open is reused (a bug).
        let pool = options.windows * 4
        var id = "w\(nextWindow % pool + 1)"
        if chance(20), let open = pickWindow() { id = open.id } else {
            for _ in 0..<pool where self.open.contains(where: { $0.id == id }) {
                nextWindow += 1
                id = "w\(nextWindow % pool + 1)"
            }
        }
        nextWindow += 1
        let declared = scenes(for: platform)
        let scene = chance(3) ? "inspector" : pick(declared).id
        let value: Int? = scene == "note" ? Int(random.next() % 5) : nil
        if !open.contains(where: { $0.id == id }) { open.append((id, scene, value)) }
        return Event(t: t, .open(window: id, scene: scene, value: value.map { .integer(Int64($0)) }, restored: chance(10) ? true : nil))
    }

    private mutating func dismiss(_ id: String) -> Event {
        open.removeAll { $0.id == id }
        activities.removeAll { $0.window == id }
        return Event(t: t, .dismiss(window: id, reason: chance(30) ? "user" : nil))
    }

    private mutating func phase() -> Event {
        let phase: ScenePhase = pick([.active, .inactive, .inactive, .background])
        let window = open.isEmpty || chance(25) ? nil : pickWindow()?.id
        return Event(t: t, .phase(phase, window: window))
    }

    private mutating func keyEvent(write: Bool) -> Event {
        if !open.isEmpty, chance(40), let w = pickWindow() {
            let key = pick(Self.sceneKeys)
            return Event(t: t, write ? .write(key: key, scope: .scene, window: w.id) : .read(key: key, scope: .scene, window: w.id))
        }
        let (key, scope) = pick(Self.keys)
        let window = open.isEmpty || chance(30) ? nil : pickWindow()?.id
        if write {
            return Event(t: t, .write(key: key, scope: scope, window: window, base: chance(5) ? random.next() % 3 : nil))
        }
        return Event(t: t, .read(key: key, scope: scope, window: window, version: chance(5) ? random.next() % 3 : nil))
    }
}

/// A small, fast, seedable random number generator (SplitMix64), so that
/// generated traces are the same on every platform.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
