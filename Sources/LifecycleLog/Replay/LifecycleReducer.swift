/// The deterministic fold at the heart of `replay`: it takes the events of a
/// trace one at a time, rebuilds the app's state (runs, declared scenes, open
/// windows with their scene, value and phase, the app phase, key versions and
/// writers, dirty keys, running activities) and reports what the rule
/// catalogue (`rules.md`) flags.
///
/// It is a value type with no I/O: feed it events with ``apply(seq:_:)``,
/// call ``finish()`` at the end of the trace, then read ``findings``. Its
/// memory grows with open windows, keys and names, never with the number
/// of events.
///
/// ```swift
/// var reducer = LifecycleReducer()
/// try trace.forEachEvent { seq, event in reducer.apply(seq: seq, event) }
/// reducer.finish()
/// for finding in reducer.findings { print(finding.seq, finding.rule, finding.message) }
/// ```
public struct LifecycleReducer: Sendable {
    /// Which rules run and at which severity.
    public let configuration: RuleConfiguration

    /// The strings behind every ``Name`` below.
    var names = NameTable()
    /// The current (or last) run; ``RunState/none`` before the first launch. Not optional: reading
    /// a field of an optional this large copies all of it.
    var run = RunState.none
    /// Open windows, densely, in no particular order (sort before anything is reported).
    var openWindows: [OpenWindow] = []
    /// How many open windows have each phase of their own (the rest follow the app-level phase).
    var ownPhaseCounts = PhaseCounts()
    /// Storage for the windows one phase event sends into or out of the background, reused.
    var crossingScratch: [(id: Name, intoBackground: Bool)] = []
    /// Closed windows whose table storage ``addWindow`` reuses.
    var closedWindows: [OpenWindow] = []
    /// For each window id (a ``Name``), its position in ``openWindows``, or -1.
    var windowSlots: [Int32] = []
    /// Every `app` and `shared` key ever touched, densely.
    var sharedKeys: [SharedKey] = []
    /// The current version of each of ``sharedKeys``: copied (on write) into each window that opens.
    var sharedVersions: [UInt64] = []
    /// For each key name, its positions in ``sharedKeys`` as an `app` key (even slot) and a `shared` key (odd slot), or -1.
    var sharedSlots: [Int32] = []
    /// How many keys of the running process have unsaved changes.
    var dirtyCount = 0
    /// For each restoration identity, its position in ``restorations``.
    var restorationSlots: [RestorationIdentity: Int] = [:]
    /// A number for each distinct canonical window value, for ``RestorationIdentity``.
    var valueNumbers: [String: UInt32] = [:]
    /// The saved scene-key versions a later `restored: true` window of each
    /// identity inherits. Windows keep their slot, so a save updates it in place.
    var restorations: [NameMap<UInt64>] = []
    var nextInstance = 1
    var unknownKinds: Set<Name> = []
    var exposure: ExposureStretch?
    var missedSaves: [UInt64: (keys: Set<KeyRef>, related: Set<UInt64>)] = [:]
    /// Findings that a later event may still join (their seq is at or past the watermark).
    var unsettled: [Finding] = []
    /// The (rule, seq) pairs of ``unsettled``: one finding per rule and seq.
    var reportedSlots: Set<FindingSlot> = []
    /// Findings that are final, sorted by seq then rule.
    var settled: [Finding] = []
    var finished = false

    /// The number of events applied.
    public private(set) var eventCount: UInt64 = 0
    /// The number of runs (launches) seen.
    public internal(set) var runCount = 0
    /// The seq of the last event applied.
    public private(set) var lastSeq: UInt64 = 0

    /// Creates a reducer that applies `configuration`.
    public init(configuration: RuleConfiguration = RuleConfiguration()) {
        self.configuration = configuration
    }

    // Sendable: every stored property is a value type of Sendable parts.

    /// Applies one event. Events must come in seq order, each once.
    public mutating func apply(seq: UInt64, _ event: Event) {
        var extra: ReplayExtra?
        var replayEvent = ReplayEvent(event, names: &names, extra: &extra)
        if let extra {
            replayEvent.extraIndex = 0
            apply(seq: seq, replayEvent, extras: [extra])
        } else {
            apply(seq: seq, replayEvent, extras: [])
        }
    }

    /// Applies one event whose names are already this reducer's (see ``NameTable/adopt(_:)``).
    /// `extras` holds the ``ReplayExtra`` the event's ``ReplayEvent/extraIndex`` points at, if any.
    mutating func apply(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        eventCount += 1
        lastSeq = seq
        switch event.kind {
        case .unknown:
            if unknownKinds.insert(event.name).inserted {
                report(.unknownEvent, at: seq, related: [],
                       "Event kind \"\(names[event.name])\" is not known to this version; it is kept and exported but not interpreted. Check the spelling, or update LifecycleLog if it is a newer kind.")
            }
        case .mark:
            break
        case .launch:
            // `!`: every launch carries its fields (the decoder and the conversion from Event both set them).
            applyLaunch(seq: seq, t: event.t, extras[Int(event.extraIndex)].launch!)
        default:
            guard isRunning else {
                let after = run.terminateSeq
                let name = event.kindName(names)
                report(.eventBeforeLaunch, at: seq, related: after.map { [$0] } ?? [],
                       after.map { "\(Self.article(name)) \(name) event comes after the run ended with terminate at seq \($0) and before the next launch: no process is running to do it. Record a launch first, or drop events after terminate." }
                        ?? "\(Self.article(name)) \(name) event comes before the first launch: no process is running yet. Start the trace with a launch event (the recorder's first call should be launch).")
                return
            }
            run.lastSeq = seq
            applyInRun(seq: seq, event, extras: extras)
        }
        if configuration.explore { trackExposure(seq: seq) }
        if !unsettled.isEmpty || !missedSaves.isEmpty { settle(below: watermark(after: seq)) }
    }

    /// The lowest seq a finding may still be anchored at after event `seq`:
    /// an undecided background save, an open exposure stretch, or the next event.
    @inline(__always)
    func watermark(after seq: UInt64) -> UInt64 {
        var mark = seq + 1
        if let pending = run.pendingApp { mark = min(mark, pending.seq) }
        for i in openWindows.indices { if let pending = openWindows[i].pendingBackground?.seq { mark = min(mark, pending) } }
        if let stretch = exposure { mark = min(mark, stretch.firstSeq) }
        return mark
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64) {
        for seq in missedSaves.keys.sorted() where seq < mark {
            // `!`: seq comes from missedSaves.keys.
            let record = missedSaves.removeValue(forKey: seq)!
            let keys = ordered(record.keys)
            report(.missedBackgroundSave, at: seq, related: record.related.sorted(),
                   "Unsaved \(list(keys)) went to the background here and no save followed before \(keys.count == 1 ? "it" : "they") left the background or the process ended: a suspended app can be killed without notice. Save when the scene phase becomes .inactive or .background (onChange(of: scenePhase)), not later.")
        }
        guard unsettled.contains(where: { $0.seq < mark }) else { return }
        var final: [Finding] = []
        unsettled.removeAll { finding in
            guard finding.seq < mark else { return false }
            final.append(finding)
            reportedSlots.remove(FindingSlot(seq: finding.seq, rule: finding.rule))
            return true
        }
        final.sort { a, b in a.seq != b.seq ? a.seq < b.seq : a.rule < b.rule }
        settled.append(contentsOf: final)
    }

    private mutating func applyInRun(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra]) {
        // The window the event names, if any, must be open (or the event has no effect).
        var index: Int?
        if event.window != ReplayEvent.noWindow && event.kind != .open {
            index = windowIndex(event.window)
            if index == nil {
                report(.unknownWindow, at: seq, related: [],
                       "The \(event.kindName(names)) event names window \"\(names[event.window])\", which is not open in this run, so it has no effect. Record an open for the window first, and stop sending events for a window after its dismiss.")
                return
            }
        }
        switch event.kind {
        case .terminate:
            run.terminateSeq = seq
            endRun(at: seq, nextLaunch: nil)
        case .open:
            applyOpen(seq: seq, t: event.t, window: event.window, scene: event.name, value: event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)].value, restored: event.restored)
        case .dismiss:
            // `!`: a dismiss always names a window, checked open above.
            applyDismiss(seq: seq, t: event.t, index: index!)
        case .phase:
            applyPhase(seq: seq, t: event.t, event.phase, window: index)
        case .delegate, .kill:
            break  // a kill's effect on the run is rules v2 (issue 12)
        case .write:
            applyWrite(seq: seq, key: event.name, scope: event.scope, window: index, base: event.versionValue)
        case .read:
            applyRead(seq: seq, key: event.name, scope: event.scope, window: index, version: event.versionValue)
        case .save:
            applySave(keys: event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)].keys, window: index)
        case .activity:
            applyActivity(seq: seq, name: event.name, state: event.activityState, window: index)
        case .launch, .mark, .unknown:
            break  // handled in apply(seq:_:)
        }
    }

    /// Ends the trace: state sent to the background and never saved becomes
    /// `missed-background-save`, an open exposure stretch closes, and the
    /// findings are sorted. Call it once, after the last event.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        if isRunning { resolvePendingSaves() }
        closeExposure()
        settle(below: .max)
    }

    /// The findings that are final and not yet taken, sorted by seq then rule.
    /// After ``finish()`` every finding is final.
    public var findings: [Finding] { settled }

    /// Hands over the findings that are final so far, sorted by seq then rule,
    /// and forgets them: call it after each ``apply(seq:_:)`` to stream a
    /// report in memory that does not grow with the trace.
    public mutating func takeSettledFindings() -> [Finding] {
        defer { settled.removeAll(keepingCapacity: true) }
        return settled
    }

    // MARK: Windows and keys by name

    /// Whether a run has started.
    @inline(__always)
    var hasRun: Bool { run.number > 0 }

    /// Whether a process is running: launched and not terminated.
    @inline(__always)
    var isRunning: Bool { run.number > 0 && run.terminateSeq == nil }

    /// The position in ``openWindows`` of the open window `id`.
    @inline(__always)
    func windowIndex(_ id: Name) -> Int? {
        let i = Int(id)
        guard i < windowSlots.count else { return nil }
        let slot = windowSlots[i]
        return slot >= 0 ? Int(slot) : nil
    }

    /// Opens a window: a fresh ``OpenWindow`` whose tables reuse the storage
    /// of a closed one when there is one (windows come and go all the time;
    /// their tables need not be allocated and freed each time). Returns its position.
    mutating func addWindow(instance: Int, id: Name, scene: Name, canonicalValue: String?, restored: Bool,
                            openSeq: UInt64, restorationSlot: Int) -> Int {
        let i = Int(id)
        if i >= windowSlots.count { windowSlots.append(contentsOf: repeatElement(-1, count: i + 1 - windowSlots.count)) }
        windowSlots[i] = Int32(openWindows.count)
        ownPhaseCounts.add(nil, 1)
        let seen = SeenVersions(atStart: sharedVersions, startSeq: openSeq)
        if !closedWindows.isEmpty {
            // Moved, then reset where it lies: no copy of its tables.
            openWindows.append(closedWindows.removeLast())
            openWindows[openWindows.count - 1].reopen(instance: instance, id: id, scene: scene, canonicalValue: canonicalValue, restored: restored,
                                                      openSeq: openSeq, seen: seen, restorationSlot: restorationSlot)
        } else {
            openWindows.append(OpenWindow(instance: instance, id: id, scene: scene, canonicalValue: canonicalValue, restored: restored,
                                          ownPhase: nil, openSeq: openSeq, seen: seen, restorationSlot: restorationSlot))
        }
        return openWindows.count - 1
    }

    /// At most this many closed windows keep their storage for reuse.
    static let closedWindowsKept = 64

    mutating func removeWindow(at index: Int) {
        ownPhaseCounts.add(openWindows[index].ownPhase, -1)
        windowSlots[Int(openWindows[index].id)] = -1
        let last = openWindows.count - 1
        if index != last {
            openWindows.swapAt(index, last)
            windowSlots[Int(openWindows[index].id)] = Int32(index)
        }
        let closed = openWindows.removeLast()
        if closedWindows.count < Self.closedWindowsKept { closedWindows.append(closed) }
    }

    mutating func removeAllWindows() {
        while !openWindows.isEmpty { removeWindow(at: openWindows.count - 1) }
        ownPhaseCounts = PhaseCounts()
    }

    /// The position in ``sharedKeys`` of key `name` of `scope` (`app` or `shared`).
    @inline(__always)
    func sharedIndex(_ name: Name, _ scope: StateScope) -> Int? {
        let i = Int(name) &* 2 &+ (scope == .shared ? 1 : 0)
        guard i < sharedSlots.count else { return nil }
        let slot = sharedSlots[i]
        return slot >= 0 ? Int(slot) : nil
    }

    mutating func addSharedKey(_ name: Name, _ scope: StateScope) -> Int {
        if let index = sharedIndex(name, scope) { return index }
        let i = Int(name) * 2 + (scope == .shared ? 1 : 0)
        if i >= sharedSlots.count { sharedSlots.append(contentsOf: repeatElement(-1, count: i + 1 - sharedSlots.count)) }
        sharedSlots[i] = Int32(sharedKeys.count)
        sharedKeys.append(SharedKey(ref: KeyRef(scope: scope, name: name), state: KeyState()))
        sharedVersions.append(0)
        return sharedKeys.count - 1
    }

    /// Every key of the running process with unsaved changes.
    func dirtyKeys() -> Set<KeyRef> {
        guard dirtyCount > 0 else { return [] }
        var keys = dirtySharedKeys()
        for w in openWindows.indices { keys.formUnion(dirtySceneKeys(of: w)) }
        return keys
    }

    /// The `app` and `shared` keys with unsaved changes.
    @inline(__always)
    func dirtySharedKeys() -> Set<KeyRef> {
        var keys = Set<KeyRef>()
        guard dirtyCount > 0 else { return keys }
        for i in sharedKeys.indices where sharedKeys[i].state.isDirty { keys.insert(sharedKeys[i].ref) }
        return keys
    }

    /// The scene keys of the window at `index` in ``openWindows`` with unsaved changes.
    @inline(__always)
    func dirtySceneKeys(of index: Int) -> [KeyRef] {
        var keys: [KeyRef] = []
        for (i, name) in openWindows[index].sceneKeys.keys.enumerated() where openWindows[index].sceneKeys.values[i].isDirty {
            keys.append(openWindows[index].sceneKeyRef(name))
        }
        return keys
    }

    // MARK: Reporting

    mutating func report(_ rule: Rule, at seq: UInt64, related: [UInt64], _ message: String) {
        guard let severity = configuration.severity(of: rule) else { return }
        guard reportedSlots.insert(FindingSlot(seq: seq, rule: rule)).inserted else { return }  // one finding per rule and seq
        let related = Array(Set(related.filter { $0 != seq && $0 > 0 })).sorted()
        unsettled.append(Finding(rule: rule, severity: severity, seq: seq, related: related, message: message))
    }

    /// "A" or "An" before an event name.
    static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "An" : "A"
    }

    /// Keys in report order: by owning window instance, scope, then name (UTF-8).
    func ordered(_ keys: some Collection<KeyRef>) -> [KeyRef] {
        if keys.count < 2 { return Array(keys) }
        let names = self.names  // capture the names, not the whole reducer
        return keys.sorted { a, b in
            if a.instance != b.instance { return a.instance < b.instance }
            if a.scope != b.scope { return a.scope.rawValue < b.scope.rawValue }
            return names.precedes(a.name, b.name)
        }
    }

    /// `"notes" (shared)` or `"draft" (scene key of window w1)`.
    func display(_ key: KeyRef) -> String {
        key.scope == .scene
            ? "\"\(names[key.name])\" (scene key of window \(names[key.window]))"
            : "\"\(names[key.name])\" (\(key.scope.rawValue))"
    }

    func list(_ keys: [KeyRef]) -> String {
        let shown = keys.map(display)
        switch shown.count {
        case 0: return "state"
        case 1: return shown[0]
        default: return shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
        }
    }

    /// Names sorted by their UTF-8 bytes, quoted and joined with commas.
    func quotedList(_ list: [Name]) -> String {
        let names = self.names
        return list.sorted(by: names.precedes).map { "\"\(names[$0])\"" }.joined(separator: ", ")
    }

    func lastWriteSeqs(_ keys: some Sequence<KeyRef>) -> [UInt64] {
        var seqs: [UInt64] = []
        for key in keys {
            if key.scope == .scene {
                guard let index = windowIndex(key.window), openWindows[index].instance == key.instance,
                      let state = openWindows[index].sceneKeys[key.name] else { continue }
                seqs.append(state.writers.lastWriteSeq)
            } else if let index = sharedIndex(key.name, key.scope) {
                seqs.append(sharedKeys[index].state.writers.lastWriteSeq)
            }
        }
        return seqs
    }
}

/// A rule at a seq: there is at most one finding for each.
struct FindingSlot: Hashable {
    var seq: UInt64
    var rule: Rule
}

extension LifecycleReducer {
    /// The open window whose id is `id`, if any (a scan: for reports, not the replay path).
    func openWindow(named id: String) -> OpenWindow? {
        openWindows.first { names[$0.id] == id }
    }
}
