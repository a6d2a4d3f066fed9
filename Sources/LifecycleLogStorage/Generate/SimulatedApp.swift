/// What the trace generators of both format versions share: the simulated notes app's random
/// draws and event clock, its activities (timers, animations, audio, location), its phase passes
/// and its saves, written once for ``TraceGenerator`` (format 1) and `TraceGeneratorV2` (format 2).
///
/// Each generator keeps its own session logic (launches, edits, reads, the end of a run): there
/// the two make other events or other random draws, and a seed's trace is pinned for each
/// version. Every member here makes exactly the draws, in exactly the order, that both
/// generators made before it was shared; changing one changes every generated trace.
protocol SimulatedApp {
    /// A window of the app.
    associatedtype Window: SimulatedWindow

    /// The random source: every draw of the generator comes from it.
    var random: SplitMix64 { get set }
    /// What to generate.
    var options: TraceGenerator.Options { get }
    /// The time of the last event emitted.
    var t: Double { get set }
    /// Events of the current step, emitted and not yet returned by ``next()``.
    var queue: [LifecycleEvent] { get set }
    /// How many of ``queue`` were returned.
    var queued: Int { get set }
    /// The platform of the current run.
    var platform: Platform { get }
    /// The open windows, in the order they opened.
    var open: [Window] { get set }
    /// The counter behind fresh window ids.
    var nextWindow: Int { get set }
    /// The running activities, with the window each belongs to (`nil`: the app's).
    var activities: [(name: String, window: String?)] { get set }
    /// Whether app-wide keys were written since the last save.
    var sharedDirty: Bool { get set }

    /// Emits the events of one step of the session (possibly none).
    mutating func step()
    /// Edits something: what a window phase flicker does when fewer than two windows are open.
    mutating func edit()
}

/// A window of a ``SimulatedApp``.
protocol SimulatedWindow {
    /// Its id.
    var id: String { get }
    /// Whether it has unsaved changes.
    var dirty: Bool { get set }
}

extension SimulatedApp {
    // MARK: Randomness

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    mutating func percent(_ p: UInt64) -> Bool { random.next() % 100 < p }
    /// Whether the app gets a habit wrong this time.
    mutating func bug() -> Bool { random.next() % 1000 < UInt64(options.bugRate) }

    // MARK: Emitting

    /// Emits an event a random 1 to 300 ms after the last one.
    mutating func emit(_ kind: LifecycleEvent.Kind, process: String? = nil, extra: [JSONMember] = []) {
        t += Double(random.next() % 300 + 1)
        queue.append(LifecycleEvent(t: t, kind, process: process, extraFields: extra))
    }

    /// The next event, from as many steps as it takes.
    mutating func next() -> LifecycleEvent {
        while queued == queue.count {
            queue.removeAll(keepingCapacity: true)
            queued = 0
            step()
        }
        queued += 1
        return queue[queued - 1]
    }

    // MARK: Phases

    /// Each open window, then the app, enters `phase`.
    mutating func enterPhase(_ phase: LifecyclePhase) {
        for w in open { emit(.phase(phase, window: w.id)) }
        emit(.phase(phase))
    }

    /// Each open window, then the app, goes inactive; outside macOS the app now and then
    /// skips the pass (a bug: a phase change that does not pass through inactive).
    mutating func passThroughInactive() {
        let skip = platform != .macOS && bug()
        if !skip { enterPhase(.inactive) }
    }

    /// One window loses and regains focus (a sheet, another window in front).
    mutating func windowPhaseFlicker() {
        guard open.count > 1 else { edit(); return }
        let w = pick(open)
        emit(.phase(.inactive, window: w.id))
        emit(.phase(.active, window: w.id))
    }

    // MARK: Activities

    /// A running activity stops, or a new one starts, of the app or of an open window.
    mutating func activity() {
        if !activities.isEmpty, percent(50) {
            let a = activities.remove(at: Int(random.next() % UInt64(activities.count)))
            emit(.activity(name: a.name, state: .stop, window: a.window))
            return
        }
        let window = open.isEmpty || percent(40) ? nil : pick(open).id
        let name = pick(["timer", "animation", "audio", "location"])
        guard !activities.contains(where: { $0.name == name && $0.window == window }) else { return }
        activities.append((name, window))
        emit(.activity(name: name, state: .start, window: window))
    }

    /// Window `id` closes: its activities stop, then it is dismissed.
    mutating func stopActivitiesAndDismiss(_ id: String) {
        for a in activities where a.window == id { emit(.activity(name: a.name, state: .stop, window: id)) }
        activities.removeAll { $0.window == id }
        emit(.dismiss(window: id, reason: percent(30) ? "user" : nil))
    }

    /// The app leaves the foreground: it stops each activity, unless it forgets one (a bug).
    mutating func stopActivitiesForBackground() {
        for a in activities where !bug() { emit(.activity(name: a.name, state: .stop, window: a.window)) }
        activities.removeAll()
    }

    // MARK: Windows and saves

    /// A window id not open now (from a pool of four per allowed window), or now and then by
    /// mistake one that is still open.
    mutating func freshWindowID() -> String {
        let pool = options.windows * 4
        var id = ""
        repeat {
            nextWindow += 1
            id = "w\(nextWindow % pool + 1)"
        } while open.contains { $0.id == id }
        if bug(), let reused = open.first { id = reused.id }  // an id that is still open
        return id
    }

    /// A restored window reads its scene storage back; losing it reads version 0.
    mutating func readRestoredDraft(_ window: String) {
        emit(.read(key: "draft", scope: .scene, window: window, version: bug() ? 0 : nil))
    }

    /// Whether anything is unsaved.
    var anyDirty: Bool { sharedDirty || open.contains { $0.dirty } }

    /// The app saves everything.
    mutating func saveAll() {
        emit(.save(store: percent(50) ? "SwiftData" : nil))
        markSaved()
    }

    /// Nothing is unsaved any more.
    mutating func markSaved() {
        sharedDirty = false
        for i in open.indices { open[i].dirty = false }
    }
}
