/// The identity of one state key: its scope and name, and for `scene` keys
/// the window instance that owns it (a window id reused after a dismiss is a
/// new window, so the instance number, not the id, tells them apart).
package struct KeyRef: Hashable {
    var scope: StateScope
    var name: Name
    /// The owning window's instance number; 0 for `app` and `shared` keys.
    var instance: Int = 0
    /// The owning window's id, for messages; unused for `app` and `shared` keys.
    var window: Name = 0

    // The instance number identifies the owning window, so the window id (kept
    // for messages) takes no part in equality or hashing.
    package static func == (a: KeyRef, b: KeyRef) -> Bool {
        a.instance == b.instance && a.scope == b.scope && a.name == b.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(truncatingIfNeeded: instance) << 34 | UInt64(name) << 2 | UInt64(scope.storedCode))
    }
}

/// Who wrote which versions of a key, in the constant space the
/// `lost-update` rule needs: the last writer, and the highest version (and
/// its seq) written by anyone else.
package struct WriterSummary: Hashable {
    var lastWriter = -1
    var lastWriteSeq: UInt64 = 0
    var otherMax: UInt64 = 0
    var otherMaxSeq: UInt64 = 0

    /// The highest version above zero written by a writer other than `writer`, with its seq.
    func latestWrite(notBy writer: Int, current: UInt64) -> (version: UInt64, seq: UInt64)? {
        if lastWriter == -1 { return nil }
        if lastWriter != writer { return (current, lastWriteSeq) }
        return otherMax > 0 ? (otherMax, otherMaxSeq) : nil
    }

    mutating func record(writer: Int, newVersion: UInt64, seq: UInt64) {
        if writer != lastWriter, lastWriter != -1 {
            otherMax = newVersion - 1
            otherMaxSeq = lastWriteSeq
        }
        lastWriter = writer
        lastWriteSeq = seq
    }
}

/// The versions of one key.
package struct KeyState: Hashable {
    var version: UInt64 = 0
    var saved: UInt64 = 0
    var writers = WriterSummary()
    /// ``writers`` as it was when ``saved`` was reached: what survives a relaunch.
    var savedWriters = WriterSummary()
    /// The seq of the key's last `write`, which a rewind to the saved version (a launch, a
    /// document's last window closing) does not undo: findings relate it (rules.md).
    var lastWrite: UInt64 = 0

    var isDirty: Bool { version > saved }

    /// A key whose saved version is `saved`, as after a launch or a restoration.
    package init(saved: UInt64 = 0, writers: WriterSummary = WriterSummary()) {
        version = saved
        self.saved = saved
        self.writers = writers
        savedWriters = writers
    }

    mutating func markSaved() {
        saved = version
        savedWriters = writers
    }
}

/// An `app` or `shared` key, with its state.
package struct SharedKey {
    var ref: KeyRef
    var state: KeyState
    /// Whether any event wrote it (a key only read so far is not part of the state).
    var written = false
    /// The run (``LifecycleModel/runCount``) in which its state last changed: a launch resets the
    /// keys changed in the run that ended, not every key (``LifecycleModel/changedShared``).
    var changedInRun = -1
}

/// The last version of a key a writer has seen, and the event that showed it
/// (seq 0: nothing seen since the window opened or the run launched).
package struct Seen: Hashable {
    var version: UInt64
    var seq: UInt64
}

/// What one writer (a window, or the app) has last seen of the `app` and `shared` keys it read
/// or wrote, by the keys' positions in ``LifecycleModel/sharedKeys``. A key it has not touched
/// since it started it has seen at its version then (``SharedKeyVersions/version(_:at:)``).
///
/// Dense for the first keys (most apps have a few shared keys, touched by every window), sparse
/// beyond: a window that touches key 5,000 of a trace with a document per window would otherwise
/// fill 5,000 slots (issue 28). The dense part grows to at most 64 slots plus 4 per key touched,
/// so its size follows what the writers that used its storage did (a closed window's storage goes
/// to the next window opened), not how many keys the process has.
package struct SeenVersions {
    /// The seq the writer started at (window open, or launch).
    var startSeq: UInt64
    private var dense: [Seen] = []
    private var sparse: [Int: Seen] = [:]
    private var touched = 0

    init(startSeq: UInt64) { self.startSeq = startSeq }

    /// What it last saw of key `index` by reading or writing it, or `nil`: nothing since it started.
    @inline(__always)
    func last(_ index: Int) -> Seen? {
        if index < dense.count, dense[index].seq != 0 { return dense[index] }
        return sparse.isEmpty ? nil : sparse[index]
    }

    /// Inlined, with the growth out of line: every `app` and `shared` read and write sets one.
    @inline(__always)
    mutating func set(_ index: Int, _ seen: Seen) {
        if index < dense.count { dense[index] = seen } else { setBeyond(index, seen) }
    }

    @inline(never)
    private mutating func setBeyond(_ index: Int, _ seen: Seen) {
        touched += 1
        if index < 64 + 4 * touched {
            dense.append(contentsOf: repeatElement(Seen(version: 0, seq: 0), count: index + 1 - dense.count))
            dense[index] = seen
        } else {
            sparse[index] = seen
        }
    }

    /// Starts again at `startSeq`, keeping the storage.
    mutating func restart(at startSeq: UInt64) {
        self.startSeq = startSeq
        // The dense slots are unset (seq 0: nothing seen, ``last(_:)``), not removed: zeroing a few
        // hundred bytes costs less than `replaceSubrange`, and the next writer grows them less.
        if !dense.isEmpty { dense.withUnsafeMutableBufferPointer { $0.update(repeating: Seen(version: 0, seq: 0)) } }
        if !sparse.isEmpty { sparse.removeAll(keepingCapacity: true) }
        touched = 0
    }
}

/// Unsaved state sent to the background, waiting to learn whether a save comes in time.
package struct PendingSave {
    var seq: UInt64
    var keys: Set<KeyRef>
    /// Each key's version just after ``seq``: a paired save `end` takes a key off only when the
    /// version it saves is at least this (rules.md, Readings 18).
    var versions: [KeyRef: UInt64] = [:]
}

/// A save `begin` (trace format 2) not yet paired with its `end`: the versions it will save.
package struct OpenSave {
    /// The begin's seq.
    var seq: UInt64
    /// Its `id` (``ReplayEvent/noName``: none).
    var id: Name
    /// Its `window` (``ReplayEvent/noWindow``: none) and `store`, for pairing an `end` without `id`.
    var window: Name
    var store: String?
    /// The covered `app` and `shared` keys with unsaved changes at the begin, by position in
    /// ``LifecycleModel/sharedKeys``, with their versions then.
    var shared: [(index: Int, version: UInt64)]
    /// The covered `scene` keys with unsaved changes at the begin, with their versions then.
    var scene: [(key: KeyRef, version: UInt64)]
    /// The covered `group` keys with unsaved changes at the begin, in any process, with their
    /// versions then (filled in by the reducer, which keeps `group` keys).
    var group: [(name: Name, version: UInt64)] = []
}

/// The identity a later `restored: true` window of the same scene finds an
/// earlier one by: scene and value, or scene and window id with no value.
/// Packed in one number: the scene, then the value (by its number in
/// ``LifecycleModel/valueNumbers``) or the window id, and which of the two.
package struct RestorationIdentity: Hashable {
    var bits: UInt64

    init(scene: Name, valueNumber: UInt32?, window: Name) {
        bits = UInt64(scene) << 32 | UInt64(valueNumber.map { $0 << 1 | 1 } ?? window << 1)
    }
}

/// One open window.
package struct OpenWindow {
    package var instance: Int
    package var id: Name
    package var scene: Name
    package var canonicalValue: String?
    var restored: Bool
    var ownPhase: LifecyclePhase?
    var openSeq: UInt64
    var seen: SeenVersions
    var sceneKeys = NameMap<KeyState>()
    /// The positions in ``sceneKeys`` of the keys with unsaved changes, in no particular order:
    /// a save visits these, not every key the window ever wrote (replay stays linear in keys
    /// when an app saves after each edit).
    var dirtyScene: [Int] = []
    /// Saved versions inherited from the window this one restores.
    var restoredFrom = NameMap<UInt64>()
    /// Running activities, by name, with the seq that started them.
    var activities = NameMap<UInt64>()
    /// What `activity-in-background` names of ``activities`` (`nil`: to be made again from them).
    var activitySummary: ActivitySummary?
    /// The documents it shows (trace format 2): its value, and every document it wrote or read a
    /// key of (trace-format.md, Readings 11), as the identities document keys are joined with.
    /// Only those besides its value are kept here (most windows show just their value: nothing to
    /// keep, and nothing to empty when the window's storage is reused); see ``shows(_:)``.
    var documents: [String] = []

    /// Whether it did not show it before.
    @discardableResult
    mutating func show(document identity: String) -> Bool {
        guard identity != canonicalValue, !documents.contains(identity) else { return false }
        documents.append(identity)
        return true
    }

    /// Whether it shows document `identity`: its value, or one it wrote or read a key of.
    func shows(_ identity: String) -> Bool { identity == canonicalValue || documents.contains(identity) }

    /// Every document it shows.
    var shownDocuments: [String] { (canonicalValue.map { [$0] } ?? []) + documents }
    var pendingBackground: PendingSave?
    /// Its position in ``LifecycleModel/restorations`` (found once, at open): by its value, or
    /// without one by its id.
    var restorationSlot: Int
    /// The slot of its scene and id, which a restored window without a value takes over from
    /// (trace-format.md, Readings 2): ``restorationSlot`` for a window without a value.
    var idSlot = -1

    func sceneKeyRef(_ name: Name) -> KeyRef { KeyRef(scope: .scene, name: name, instance: instance, window: id) }

    /// Makes this closed window a newly opened one, keeping the capacity of its tables.
    mutating func reopen(instance: Int, id: Name, scene: Name, canonicalValue: String?, restored: Bool,
                         openSeq: UInt64, seen: SeenVersions, restorationSlot: Int) {
        self.instance = instance
        self.id = id
        self.scene = scene
        self.canonicalValue = canonicalValue
        self.restored = restored
        ownPhase = nil
        self.openSeq = openSeq
        self.seen.restart(at: seen.startSeq)
        sceneKeys.removeAll()
        dirtyScene.removeAllKeepingStorage()
        restoredFrom = NameMap()  // shared with the restoration it came from: dropped, not emptied in place
        activities.removeAll()
        activitySummary = nil
        documents.removeAllKeepingStorage()
        pendingBackground = nil
        self.restorationSlot = restorationSlot
    }
}

/// How many open windows have each phase of their own.
package struct PhaseCounts: Hashable {
    var active = 0
    var inactive = 0
    var background = 0

    mutating func add(_ phase: LifecyclePhase?, _ n: Int) {
        switch phase {
        case .active?: active += n
        case .inactive?: inactive += n
        case .background?: background += n
        case nil: break
        }
    }
}

/// A declared scene, as the rules need it.
package struct DeclaredScene {
    var kind: SceneKind
    /// ``kind``, classified once (at the launch's decoding).
    var known: KnownSceneKind
    var hasPresentedType: Bool
    /// `Window`, `Settings` or `MenuBarExtra`: one window at a time.
    var isSingleInstance: Bool
    /// `WindowGroup` or `DocumentGroup`: one window per value.
    var isPerValue: Bool

    init(_ scene: ReplayLaunch.Scene) {
        kind = scene.kind
        known = scene.known
        hasPresentedType = scene.hasPresentedType
        isSingleInstance = known == .window || known == .settings || known == .menuBarExtra
        isPerValue = known == .windowGroup || known == .documentGroup
    }
}

/// One process lifetime, from a `launch` to the next `launch` or the end of the trace.
/// Before the first launch the model holds ``none``, run number 0.
package struct RunState {
    var number: Int = 0
    var launchSeq: UInt64 = 0
    var launchT: Double = 0
    var platform: Platform = .iOS
    var scenes = NameMap<DeclaredScene>()
    /// Launched with `"reason":"background"`.
    var isBackgroundLaunch = false
    /// Launched with `"reason":"prewarm"` (starts in the background like a background launch).
    var isPrewarm = false
    /// Launched with `"debugger":true`.
    var debugger = false
    /// The launch's activation policy (`nil`: regular).
    var activation: ActivationPolicy?
    var build: String?
    var os: String?
    var appWriter: Int = 0
    var appLevelPhase: LifecyclePhase = .inactive
    var lastAppLevelPhaseSeq: UInt64?
    var seen = SeenVersions(startSeq: 0)
    var appActivities = NameMap<UInt64>()
    /// What `activity-in-background` names of ``appActivities`` (`nil`: to be made again from them).
    var appActivitySummary: ActivitySummary?
    var everActive = false
    var pendingApp: PendingSave?
    /// Keys whose background save this run missed (`missed-background-save` names them; `unsaved-at-exit` does not again).
    var missedInBackground: Set<KeyRef> = []
    /// The seq of the `terminate` or `kill` that ended the run (nil: going, or ended by a next
    /// launch or at a willTerminate seen only later).
    package var terminateSeq: UInt64?
    /// Whether the event at ``terminateSeq`` is a `kill`, and its reason.
    var endedByKill = false
    var killReason: Name = 0
    /// The first `willTerminate` of the run: the run goes on until its `terminate`, `kill` or the
    /// next `launch` (trace-format.md, Readings 9), but ends cleanly here if none of the first two comes.
    var willTerminateSeq: UInt64?
    /// The last event of the run (not its end event; no mark, no unknown kind).
    var lastSeq: UInt64 = 0
    /// Save `begin`s not yet paired, oldest first.
    var openSaves: [OpenSave] = []

    /// No run: before the first launch.
    static let none = RunState()

    /// Starts run `number` from `launch`, keeping the capacity of this run's tables.
    mutating func relaunch(number: Int, launchSeq: UInt64, launchT: Double, launch: ReplayLaunch, appWriter: Int, seen: SeenVersions) {
        self.number = number
        self.launchSeq = launchSeq
        self.launchT = launchT
        platform = launch.platform
        scenes.removeAll()
        for scene in launch.scenes where scenes[scene.id] == nil {
            scenes[scene.id] = DeclaredScene(scene)
        }
        isBackgroundLaunch = launch.isBackgroundLaunch
        isPrewarm = launch.isPrewarm
        debugger = launch.debugger == true
        activation = launch.activation
        build = launch.build
        os = launch.os
        self.appWriter = appWriter
        appLevelPhase = launch.isBackgroundLaunch || launch.isPrewarm ? .background : .inactive
        lastAppLevelPhaseSeq = nil
        self.seen.restart(at: seen.startSeq)
        appActivities.removeAll()
        appActivitySummary = nil
        everActive = false
        pendingApp = nil
        if !missedInBackground.isEmpty { missedInBackground.removeAll(keepingCapacity: true) }
        terminateSeq = nil
        endedByKill = false
        willTerminateSeq = nil
        openSaves.removeAllKeepingStorage()
        lastSeq = launchSeq
    }
}

/// The window whose saves a restoration slot follows, until the slot's copy is made.
package struct RestorationSource: Hashable {
    /// The window's instance number.
    var instance: Int
    /// The window's id: where it is found among the open windows (``LifecycleModel/windowIndex(_:)``).
    var id: Name
    /// How many of its scene keys (the first ones: keys are only added) the slot holds.
    var keyCount: Int
}
