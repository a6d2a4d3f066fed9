/// What a trace says happened, rebuilt one event at a time: runs, declared
/// scenes, open windows with their scene, value and phase, the app-level and
/// aggregate app phases, activities, and key versions (each writer's last seen
/// version, saved versions, restorations).
///
/// The model keeps no rule's state and makes no finding. Applying an event, it
/// tells the rules (a ``RuleSet``, passed in) what changed, as
/// ``Transition``s, each at the moment it happens, with the model passed along
/// read-only so that a rule can look at whatever else it needs. Its memory grows with open windows, keys and names,
/// never with the number of events.
package struct LifecycleModel: Sendable {
    /// The strings behind every ``Name`` below.
    var names = NameTable()
    /// The current (or last) run; ``RunState/none`` before the first launch. Not optional: reading
    /// a field of an optional this large copies all of it.
    var run = RunState.none
    /// The number of runs (launches) seen.
    var runCount = 0
    /// Open windows, densely, in no particular order (sort before anything is reported).
    var openWindows: [OpenWindow] = []
    /// How many open windows have each phase of their own (the rest follow the app-level phase).
    var ownPhaseCounts = PhaseCounts()
    /// Storage for the windows one phase event sends into or out of the background, reused.
    var crossingScratch: [(id: Name, intoBackground: Bool)] = []
    /// The seqs the open windows' background saves wait at (``undecidedSaves(below:)``).
    var pendingBackgroundSeqs = SeqMultiset()
    /// The open windows by scene and by scene and value, in open order (for `duplicate-window`).
    var openByScene = OpenWindowsByScene()
    /// Closed windows whose table storage ``addWindow`` reuses.
    var closedWindows: [OpenWindow] = []
    /// For each window id (a ``Name``), its position in ``openWindows``, or -1.
    var windowSlots = NameSlots()
    /// Every `app` and `shared` key ever touched, densely.
    var sharedKeys: [SharedKey] = []
    /// The versions of ``sharedKeys``: now, and when each open window (and the app) started.
    var sharedVersions = SharedKeyVersions()
    /// Positions in ``sharedKeys`` of keys that had unsaved changes when put here: every key with
    /// unsaved changes is here (a save visits these, not every key); some may be saved since, or
    /// here twice. Kept within twice the keys (``noteDirtyShared(_:)``).
    var dirtyShared: [Int] = []
    /// Positions in ``sharedKeys`` of the keys whose state changed in this run, each once
    /// (``noteChanged(_:)``): what the next launch resets (issue 28: a reset of every key at each
    /// launch made a long trace with many documents and many runs quadratic).
    var changedShared: [Int] = []
    /// For each key name, its positions in ``sharedKeys`` as an `app` key (even slot) and a `shared` key (odd slot), or -1.
    var sharedSlots = NameSlots()
    /// Whether any `document` key was written or read in this process (trace format 2).
    var hasDocumentKeys = false
    /// For each document (its identity, as document keys are joined with), the positions of its
    /// keys in ``sharedKeys``: what a dismiss that closes it takes along, found without a scan.
    var documentKeyPositions: [String: [Int]] = [:]
    /// Once there are document keys (``hasDocumentKeys``): for each document an open window shows,
    /// how many do, so that a dismiss finds the documents it closes without a scan of every open
    /// window (issue 28: N document windows open at once, then dismissed, were quadratic).
    var documentViewers: [String: Int] = [:]
    /// How many keys of the running process have unsaved changes.
    var dirtyCount = 0
    /// For each restoration identity (by its ``RestorationIdentity/bits``), its position in ``restorations``.
    var restorationSlots = SlotTable()
    /// A number for each distinct canonical window value, for ``RestorationIdentity``.
    var valueNumbers: [String: UInt32] = [:]
    /// The saved scene-key versions a later `restored: true` window of each
    /// identity inherits. Windows keep their slot, so a save updates it in place.
    var restorations: [NameMap<UInt64>] = []
    /// For each of ``restorations``, the open window whose saves it follows and how many of that
    /// window's keys it holds, when it has not been copied yet (see ``restorationSaved(by:)``).
    var restorationSources: [RestorationSource?] = []
    /// For each of ``restorations``, the instance of the last window opened with its identity: only
    /// its saves change what a later restored window takes over (Readings 2: "the last earlier window").
    var restorationOwners: [Int] = []
    var nextInstance = 1
    /// The positions in ``sharedKeys`` of this process's `group` keys, in the order first touched.
    var groupKeyPositions: [Int] = []
    /// Whether the trace has `group` keys: then a `save` leaves ``groupSave`` for the reducer.
    var tracksGroupKeys = false
    /// What the last event asked of `group` keys, for the reducer to carry out in every process.
    var groupSave: GroupSaveRequest?
    /// What other processes did to `group` keys while this process's run waited for its end
    /// after a willTerminate: applied before its next event, dropped when its run is judged.
    var deferredGroupEffects: [GroupEffect] = []

    // Sendable: every stored property is a value type of Sendable parts.

    // MARK: Runs, windows and keys by name

    /// Whether a run has started.
    @inline(__always)
    var hasRun: Bool { run.number > 0 }

    /// Whether a process is running: launched and not terminated.
    @inline(__always)
    var isRunning: Bool { run.number > 0 && run.terminateSeq == nil }

    /// The position in ``openWindows`` of the open window `id`.
    @inline(__always)
    func windowIndex(_ id: Name) -> Int? {
        let slot = windowSlots[Int(id)]
        return slot >= 0 ? Int(slot) : nil
    }

    /// The lowest seq of a background save still undecided, or `mark` when that is lower.
    @inline(__always)
    func undecidedSaves(below mark: UInt64) -> UInt64 {
        var mark = mark
        if let pending = run.pendingApp { mark = min(mark, pending.seq) }
        // A run ended at its willTerminate is judged there when its end is known.
        if let willTerminate = run.willTerminateSeq, isRunning { mark = min(mark, willTerminate) }
        if let pending = pendingBackgroundSeqs.lowest { mark = min(mark, pending) }
        return mark
    }

    mutating func takeInstance() -> Int {
        defer { nextInstance += 1 }
        return nextInstance
    }

    /// Opens a window: a fresh ``OpenWindow`` whose tables reuse the storage
    /// of a closed one when there is one (windows come and go all the time;
    /// their tables need not be allocated and freed each time). Returns its position.
    mutating func addWindow(instance: Int, id: Name, scene: Name, canonicalValue: String?, restored: Bool,
                            openSeq: UInt64, restorationSlot: Int) -> Int {
        windowSlots.set(Int(id), Int32(openWindows.count))
        openByScene.opened(.init(instance: instance, id: id), scene: scene, valueSlot: canonicalValue == nil ? nil : restorationSlot)
        ownPhaseCounts.add(nil, 1)
        if hasDocumentKeys, let canonicalValue { documentViewers[canonicalValue, default: 0] += 1 }
        let seen = SeenVersions(startSeq: openSeq)
        sharedVersions.writerStarted(at: openSeq)
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
        // Its saves leave what a later restored window takes over: copied now (no array literal: this runs at every dismiss).
        let (slot, idSlot, instance) = (openWindows[index].restorationSlot, openWindows[index].idSlot, openWindows[index].instance)
        if restorationSources[slot]?.instance == instance { materializeRestoration(slot) }
        if idSlot != slot, restorationSources[idSlot]?.instance == instance { materializeRestoration(idSlot) }
        ownPhaseCounts.add(openWindows[index].ownPhase, -1)
        sharedVersions.writerEnded(startedAt: openWindows[index].openSeq)
        if hasDocumentKeys {
            for identity in openWindows[index].shownDocuments {
                let viewers = documentViewers[identity, default: 1] - 1
                documentViewers[identity] = viewers > 0 ? viewers : nil
            }
        }
        if let pending = openWindows[index].pendingBackground {  // normally decided before: kept right all the same
            pendingBackgroundSeqs.remove(pending.seq)
            openWindows[index].pendingBackground = nil
        }
        openByScene.closed(.init(instance: instance, id: openWindows[index].id), scene: openWindows[index].scene,
                           valueSlot: openWindows[index].canonicalValue == nil ? nil : slot)
        windowSlots.set(Int(openWindows[index].id), -1)
        // The last window takes its place. `swap` moves the two without a copy; `swapAt` copied
        // both windows, retaining and releasing each of their tables.
        var closed = openWindows.removeLast()
        if index != openWindows.count {
            swap(&closed, &openWindows[index])
            windowSlots.set(Int(openWindows[index].id), Int32(index))
        }
        if closedWindows.count < Self.closedWindowsKept { closedWindows.append(consume closed) }
    }

    mutating func removeAllWindows() {
        while !openWindows.isEmpty { removeWindow(at: openWindows.count - 1) }
        ownPhaseCounts = PhaseCounts()
    }

    /// The slot of `scope` among a name's four in ``sharedSlots``.
    @inline(__always)
    static func slot(_ scope: StateScope) -> Int {
        switch scope {
        case .app, .scene: return 0
        case .shared: return 1
        case .group: return 2
        case .document: return 3
        }
    }

    /// The position in ``sharedKeys`` of key `name` of `scope` (`app`, `shared`, `group` or `document`).
    @inline(__always)
    func sharedIndex(_ name: Name, _ scope: StateScope) -> Int? {
        let slot = sharedSlots[Int(name) &* 4 &+ Self.slot(scope)]
        return slot >= 0 ? Int(slot) : nil
    }

    /// The position in ``sharedKeys`` of key `name` of `scope`, added if new. Inlined: every
    /// `app` and `shared` read and write looks its key up here, and nearly all find it.
    @inline(__always)
    mutating func addSharedKey(_ name: Name, _ scope: StateScope) -> Int {
        if let index = sharedIndex(name, scope) { return index }
        return appendSharedKey(name, scope)
    }

    /// A key not seen before in this process, once per key.
    @inline(never)
    private mutating func appendSharedKey(_ name: Name, _ scope: StateScope) -> Int {
        let i = Int(name) * 4 + Self.slot(scope)
        if scope == .document {
            if !hasDocumentKeys {
                for window in openWindows {
                    for identity in window.shownDocuments { documentViewers[identity, default: 0] += 1 }
                }
            }
            hasDocumentKeys = true
            documentKeyPositions[Self.documentKey(names[name]).document, default: []].append(sharedKeys.count)
        }
        if scope == .group { groupKeyPositions.append(sharedKeys.count) }
        sharedSlots.set(i, Int32(sharedKeys.count))
        sharedKeys.append(SharedKey(ref: KeyRef(scope: scope, name: name), state: KeyState()))
        sharedVersions.appendKey()
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
        for i in dirtyShared where sharedKeys[i].state.isDirty { keys.insert(sharedKeys[i].ref) }
        return keys
    }

    /// Whether a kill now would lose unsaved state: running, inactive or in the background, with
    /// unsaved keys (`kill-exposure`).
    var wouldLoseStateToKill: Bool { isRunning && dirtyCount > 0 && appPhase != .active }

    /// The `group` keys with unsaved changes, each once.
    func dirtyGroupKeyNames() -> [Name] {
        var names = Set<Name>()
        for i in dirtyShared where sharedKeys[i].ref.scope == .group && sharedKeys[i].state.isDirty { names.insert(sharedKeys[i].ref.name) }
        return names.sorted()
    }

    /// Key `index` of ``sharedKeys`` changed in this run (its version, saved version or writers).
    @inline(__always)
    mutating func noteChanged(_ index: Int) {
        guard sharedKeys[index].changedInRun != runCount else { return }
        sharedKeys[index].changedInRun = runCount
        changedShared.append(index)
    }

    /// Key `index` of ``sharedKeys`` now has unsaved changes (call it after the change: the
    /// compaction this may run keeps only keys with unsaved changes).
    @inline(__always)
    mutating func noteDirtyShared(_ index: Int) {
        dirtyShared.append(index)
        if dirtyShared.count > 2 * sharedKeys.count + 16 { compactDirtyShared() }
    }

    /// ``dirtyShared`` sorted, each key once, only those with unsaved changes.
    mutating func compactDirtyShared() {
        dirtyShared.sortSmall()
        var kept = 0
        for j in dirtyShared.indices {
            let i = dirtyShared[j]
            guard sharedKeys[i].state.isDirty, kept == 0 || dirtyShared[kept - 1] != i else { continue }
            dirtyShared[kept] = i
            kept += 1
        }
        dirtyShared.truncate(to: kept)
    }

    /// The scene keys of the window at `index` in ``openWindows`` with unsaved changes.
    @inline(__always)
    func dirtySceneKeys(of index: Int) -> [KeyRef] {
        openWindows[index].dirtyScene.sorted().map { openWindows[index].sceneKeyRef(openWindows[index].sceneKeys.keys[$0]) }
    }

    /// ``dirtySceneKeys(of:)`` where the model may change: the window's list of dirty positions,
    /// which is in no particular order, is sorted where it lies, so no sorted copy is made.
    mutating func sortingDirtySceneKeys(of index: Int) -> [KeyRef] {
        let count = openWindows[index].dirtyScene.count
        if count == 0 { return [] }
        openWindows[index].dirtyScene.sortSmall()
        var keys: [KeyRef] = []
        keys.reserveCapacity(count)
        for j in 0..<count {
            keys.append(openWindows[index].sceneKeyRef(openWindows[index].sceneKeys.keys[openWindows[index].dirtyScene[j]]))
        }
        return keys
    }

    /// The seq of the last write of each of `keys` still known.
    func lastWriteSeqs(_ keys: some Sequence<KeyRef>) -> [UInt64] {
        var seqs: [UInt64] = []
        for key in keys {
            if key.scope == .scene {
                guard let index = windowIndex(key.window), openWindows[index].instance == key.instance,
                      let state = openWindows[index].sceneKeys[key.name] else { continue }
                seqs.append(state.lastWrite)
            } else if let index = sharedIndex(key.name, key.scope) {
                seqs.append(sharedKeys[index].state.lastWrite)
            }
        }
        return seqs
    }

    /// The open window whose id is `id`, if any (a scan: for reports, not the replay path).
    func openWindow(named id: String) -> OpenWindow? {
        openWindows.first { names[$0.id] == id }
    }

    // MARK: Words for messages

    /// "A" or "An" before an event name.
    static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "An" : "A"
    }

    /// Keys in report order: by owning window instance, scope, then name (UTF-8).
    func ordered(_ keys: some Collection<KeyRef>) -> [KeyRef] {
        if keys.count < 2 { return Array(keys) }
        return keys.sorted(by: Self.reportOrder(names))
    }

    /// Whether a key comes before another in report order (``ordered(_:)``), with `names`
    /// captured rather than the whole model.
    static func reportOrder(_ names: NameTable) -> (KeyRef, KeyRef) -> Bool {
        { a, b in
            if a.instance != b.instance { return a.instance < b.instance }
            if a.scope != b.scope { return a.scope.rawValue < b.scope.rawValue }
            return names.precedes(a.name, b.name)
        }
    }

    /// `"notes" (shared)` or `"draft" (scene key of window w1)`.
    func display(_ key: KeyRef) -> String {
        switch key.scope {
        case .scene: return "\"\(names[key.name])\" (scene key of window \(names[key.window]))"
        case .document:
            let (name, document) = Self.documentKey(names[key.name])
            if document.hasPrefix("\u{1}") { return "\"\(name)\" (untitled document of window \(document.dropFirst().prefix { $0 != "\u{0}" }))" }
            return "\"\(name)\" (document \(document))"
        default: return "\"\(names[key.name])\" (\(key.scope.rawValue))"
        }
    }

    /// The `document` keys that go with window `index` when it is dismissed: those of the
    /// document it shows (its presented value, or its own untitled document), when no other
    /// open window shows that document. Positions in ``sharedKeys``.
    func documentKeysLeft(byDismissing index: Int) -> [Int] {
        guard hasDocumentKeys else { return [] }
        let closing = openWindows[index].shownDocuments.filter { documentViewers[$0, default: 0] <= 1 }
        guard !closing.isEmpty else { return [] }
        return closing.flatMap { documentKeyPositions[$0] ?? [] }.sorted()
    }

    /// Window `index` shows document `identity`, as it writes or reads one of its keys.
    mutating func show(document identity: String, in index: Int) {
        if openWindows[index].show(document: identity), hasDocumentKeys { documentViewers[identity, default: 0] += 1 }
    }

    /// The identity of the untitled document of a window opened without a value: that window's
    /// own (its instance), named by its id in messages.
    static func untitledDocument(window: String, instance: Int) -> String {
        "\u{1}" + window + "\u{0}" + String(instance)
    }

    /// Whether a `save` with `names` (all when `nil`) and `window` (none: every window) covers
    /// shared key `ref` (not a `scene` key): a document key by its own name, and with a window only
    /// when that window shows the document (trace-format.md section 5).
    @inline(__always)
    func saveCovers(_ ref: KeyRef, names narrowed: [Name]?, window: Int?) -> Bool {
        guard ref.scope == .document else { return narrowed?.contains(ref.name) ?? true }
        return saveCoversDocument(ref, names: narrowed, window: window)
    }

    @inline(never)
    private func saveCoversDocument(_ ref: KeyRef, names narrowed: [Name]?, window: Int?) -> Bool {
        let (name, document) = Self.documentKey(names[ref.name])
        if let window, !openWindows[window].shows(document) { return false }
        guard let narrowed else { return true }
        return narrowed.contains { names[$0] == name }
    }

    /// A `document` key's name and document, as `LifecycleReducer.documentKey` joined them.
    static func documentKey(_ joined: String) -> (name: String, document: String) {
        guard let split = joined.firstIndex(of: "\u{0}") else { return (joined, "") }
        return (String(joined[..<split]), String(joined[joined.index(after: split)...]))
    }

    /// `keys` as a message names them (``display(_:)``), in report order (``ordered(_:)``):
    /// `A, B and C`, or past ``FindingBound/items`` the first of them and how many more
    /// (`A, B, … J and 4,990 more`); `state` when there are none.
    func list(_ keys: some Collection<KeyRef>) -> String {
        guard !keys.isEmpty else { return "state" }
        var budget = FindingBudget()
        return FindingBound.list(budget.take(keys, by: Self.reportOrder(names)).map(display), last: " and ", budget)
    }

    /// Names sorted by their UTF-8 bytes, quoted and joined with commas; past
    /// ``FindingBound/items``, the first of them and how many more.
    func quotedList(_ list: [Name]) -> String {
        let names = self.names
        var budget = FindingBudget()
        return budget.take(list, by: names.precedes).map { "\"\(names[$0])\"" }.joined(separator: ", ") + budget.moreText
    }
}

extension LifecycleModel {
    /// Applies one event inside a run (``isRunning``). An event naming a window that is not open
    /// has no effect but ``Transition/unknownWindow(_:)``.
    mutating func applyInRun(seq: UInt64, _ event: ReplayEvent, extras: [ReplayExtra], _ rules: inout RuleSet) {
        // The run's last event (Readings 10; a kill, an end event, puts it back).
        let previousLast = run.lastSeq
        run.lastSeq = seq
        // The window the event names, if any, must be open (or the event has no effect).
        var index: Int?
        if event.window != ReplayEvent.noWindow && event.kind != .open {
            index = windowIndex(event.window)
            if index == nil {
                rules.observe(.unknownWindow(event), &self)
                return
            }
        }
        switch event.kind {
        case .terminate:
            applyTerminate(seq: seq, &rules)
        case .open:
            applyOpen(seq: seq, t: event.t, window: event.window, scene: event.name,
                      value: event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)].value, restored: event.restored, &rules)
        case .dismiss:
            // `!`: a dismiss always names a window, checked open above.
            applyDismiss(seq: seq, t: event.t, index: index!, &rules)
        case .phase:
            applyPhase(seq: seq, t: event.t, event.phase, window: index, &rules)
        case .kill:
            run.lastSeq = previousLast
            applyKill(seq: seq, t: event.t, reason: event.name,
                      event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)].kill, &rules)
        case .delegate:
            if event.isWillTerminate { applyWillTerminate(seq: seq) }
        case .write:
            applyWrite(seq: seq, key: event.name, scope: event.scope, window: index, base: event.versionValue, &rules)
        case .read:
            applyRead(seq: seq, key: event.name, scope: event.scope, window: index, version: event.versionValue, &rules)
        case .save:
            if let stage = event.saveStage {
                applyStagedSave(seq: seq, stage, event, extras: extras, window: index, &rules)
            } else {
                applySave(keys: event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)].keys, window: index, &rules)
            }
        case .activity:
            applyActivity(seq: seq, name: event.name, state: event.activityState, window: index, &rules)
            if event.activityState == .expire, !run.openSaves.isEmpty { rules.observe(.expired, &self) }
        case .launch, .mark, .unknown:
            break  // handled by the fold (LifecycleReducer.apply)
        }
    }
}
