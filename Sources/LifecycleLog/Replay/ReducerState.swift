/// The identity of one state key: its scope and name, and for `scene` keys
/// the window instance that owns it (a window id reused after a dismiss is a
/// new window, so the instance number, not the id, tells them apart).
struct KeyRef: Hashable, Comparable {
    var scope: StateScope
    var name: String
    /// The owning window's instance number; 0 for `app` and `shared` keys.
    var instance: Int = 0
    /// The owning window's id, for messages; empty for `app` and `shared` keys.
    var windowID: String = ""

    // The instance number identifies the owning window, so the window id (kept
    // for messages) takes no part in equality or hashing: one string hash, not two.
    static func == (a: KeyRef, b: KeyRef) -> Bool {
        a.instance == b.instance && a.scope == b.scope && a.name == b.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(instance)
        hasher.combine(scope)
        hasher.combine(name)
    }

    static func < (a: KeyRef, b: KeyRef) -> Bool {
        if a.instance != b.instance { return a.instance < b.instance }
        if a.scope != b.scope { return a.scope.rawValue < b.scope.rawValue }
        return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }

    /// `"notes" (shared)` or `"draft" (scene key of window w1)`.
    var display: String {
        scope == .scene ? "\"\(name)\" (scene key of window \(windowID))" : "\"\(name)\" (\(scope.rawValue))"
    }
}

/// Who wrote which versions of a key, in the constant space the
/// `lost-update` rule needs: the last writer, and the highest version (and
/// its seq) written by anyone else.
struct WriterSummary: Hashable {
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
struct KeyState: Hashable {
    var version: UInt64 = 0
    var saved: UInt64 = 0
    var writers = WriterSummary()
    /// ``writers`` as it was when ``saved`` was reached: what survives a relaunch.
    var savedWriters = WriterSummary()

    var isDirty: Bool { version > saved }

    /// A key whose saved version is `saved`, as after a launch or a restoration.
    init(saved: UInt64 = 0, writers: WriterSummary = WriterSummary()) {
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

/// The last version of a key a writer has seen, and the event that showed it.
struct Seen: Hashable {
    var version: UInt64
    var seq: UInt64
}

/// Unsaved state sent to the background, waiting to learn whether a save comes in time.
struct PendingSave: Hashable {
    var seq: UInt64
    var keys: Set<KeyRef>
}

/// One open window.
struct OpenWindow {
    var instance: Int
    var id: WindowID
    var scene: String
    var value: JSONValue?
    var canonicalValue: String?
    var restored: Bool
    var ownPhase: ScenePhase?
    var openSeq: UInt64
    /// Versions of `app`/`shared` keys when the window opened: what it has seen until it reads or writes.
    var seenAtOpen: [KeyRef: UInt64]
    var lastSeen: [KeyRef: Seen] = [:]
    var sceneKeys: [String: KeyState] = [:]
    /// Saved versions inherited from the window this one restores.
    var restoredFrom: [String: UInt64] = [:]
    /// Running activities, by name, with the seq that started them.
    var activities: [String: UInt64] = [:]
    var pendingBackground: PendingSave?

    func sceneKeyRef(_ name: String) -> KeyRef { KeyRef(scope: .scene, name: name, instance: instance, windowID: id) }

    /// The identity a later `restored: true` window of the same scene finds it by (set at open).
    var restorationIdentity: String = ""

    static func restorationIdentity(scene: String, canonicalValue: String?, id: WindowID) -> String {
        canonicalValue.map { "\(scene)\u{0}v\($0)" } ?? "\(scene)\u{0}i\(id)"
    }
}

/// One process lifetime, from a `launch` to the next `launch` or the end of the trace.
struct RunState {
    var number: Int
    var launchSeq: UInt64
    var launchT: Double
    var platform: Platform
    var scenes: [String: SceneDeclaration]
    var isBackgroundLaunch: Bool
    var build: String?
    var os: String?
    var appWriter: Int
    var appLevelPhase: ScenePhase
    var lastAppLevelPhaseSeq: UInt64?
    var seenAtLaunch: [KeyRef: UInt64]
    var appLastSeen: [KeyRef: Seen] = [:]
    var appActivities: [String: UInt64] = [:]
    var everActive = false
    var pendingApp: PendingSave?
    var reportedByMissedSave: Set<KeyRef> = []
    var terminateSeq: UInt64?
    var lastSeq: UInt64
}

/// A stretch of events during which a kill would have lost unsaved state (`--explore`).
struct ExposureStretch {
    var firstSeq: UInt64
    var lastSeq: UInt64
    var keys: Set<KeyRef>
}
