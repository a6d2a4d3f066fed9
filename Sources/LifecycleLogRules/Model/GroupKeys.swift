/// The `group` keys of a trace (trace format 2): keys of an App Group store, one value across
/// every process. Each process's model keeps its own view of them (dirty, saved, its own
/// writers); this store keeps what only the whole trace knows: the versions every process's
/// writes made, and what each writer of each process last saw, so that `lost-update` compares
/// an app's write with its widget's.
///
/// A writer is a window of a process (from its `open`) or the app of a process's run (from its
/// `launch`); what it last saw starts at the versions current then.
package struct GroupKeys: Sendable {
    /// A writer: a process and the instance number its model gave a window of it, or its run's
    /// app (each opened window and each run's app is a writer of its own, trace-format.md section 6).
    struct Writer: Hashable, Sendable {
        var process: Name
        var instance: Int
    }

    /// One key: its version, its saved version, and the latest write of each writer.
    struct Key: Sendable {
        var version: UInt64 = 0
        /// The version the last save covering it saved (a `save` of any process covers it).
        var saved: UInt64 = 0
        var isDirty: Bool { version > saved }
        /// Each writer's latest write: the version it made, at which seq.
        var writes: [Writer: (version: UInt64, seq: UInt64)] = [:]
    }

    /// What a writer last saw of a key, and at which event.
    struct Seen: Sendable {
        var version: UInt64
        var seq: UInt64
    }

    var keys: [Name: Key] = [:]
    var seen: [Writer: [Name: Seen]] = [:]
    /// Where each writer's last-seen versions started (its `open` or `launch`).
    var origin: [Writer: Seen] = [:]

    /// Whether a `group` key was read or written yet: until then nothing here is kept.
    var started = false

    var isEmpty: Bool { !started }

    /// A window opened, or a run launched (`window` ``ReplayEvent/noWindow``): it has seen
    /// every key at its current version.
    mutating func start(_ writer: Writer, seq: UInt64) {
        origin[writer] = Seen(version: 0, seq: seq)  // keys that appear later: version 0, seen from the start
        var snapshot: [Name: Seen] = [:]
        for (name, key) in keys { snapshot[name] = Seen(version: key.version, seq: seq) }
        seen[writer] = snapshot
    }

    /// A window is gone: it writes no more.
    mutating func end(_ writer: Writer) {
        seen[writer] = nil
        origin[writer] = nil
    }

    /// A process launched: the writers of its earlier run write no more (their writes still count
    /// for `lost-update`: a launch does not rewind `group` keys), and `app`, its new run's app, starts.
    mutating func launched(_ app: Writer, seq: UInt64) {
        seen = seen.filter { $0.key.process != app.process }
        origin = origin.filter { $0.key.process != app.process }
        start(app, seq: seq)
    }

    /// A save covered `key`, at `version` (`nil`: its current one). Returns the version saved,
    /// or `nil` when that saves nothing new (saved versions never go down).
    mutating func save(_ key: Name, at version: UInt64?) -> UInt64? {
        guard let current = keys[key]?.version else { return nil }
        let version = min(version ?? current, current)
        guard version > keys[key]!.saved else { return nil }  // `!`: found above
        keys[key]!.saved = version
        return version
    }

    /// The dirty keys whose names `covered` accepts, by name, with their versions.
    func dirtyKeys(_ covered: (Name) -> Bool) -> [(name: Name, version: UInt64)] {
        keys.filter { $0.value.isDirty && covered($0.key) }.map { ($0.key, $0.value.version) }.sorted { $0.name < $1.name }
    }

    /// What `writer` last saw of `key`.
    func lastSeen(_ key: Name, by writer: Writer) -> Seen {
        seen[writer]?[key] ?? origin[writer] ?? Seen(version: 0, seq: 0)
    }

    /// A read: the writer has now seen `version` (or the current one).
    mutating func read(_ key: Name, by writer: Writer, version: UInt64?, seq: UInt64) {
        let current = keys[key]?.version ?? 0
        seen[writer, default: [:]][key] = Seen(version: version ?? current, seq: seq)
    }

    /// A write, based on `base` (or what the writer last saw). Returns the lost update it
    /// makes, if any: the base, what it was seen at, the version it overwrote, and the other
    /// writer's latest write above the base.
    mutating func write(_ key: Name, by writer: Writer, base: UInt64?, seq: UInt64)
        -> (base: UInt64, seen: Seen, current: UInt64, other: Writer, otherSeq: UInt64)? {
        let seenBefore = lastSeen(key, by: writer)
        let from = base ?? seenBefore.version
        if keys[key] == nil { keys[key] = Key() }
        var lost: (base: UInt64, seen: Seen, current: UInt64, other: Writer, otherSeq: UInt64)?
        // `!` below: the key was just made if new. Mutated in place: a copy of `Key` would copy its
        // `writes` table at the write below (it was most of a version 2 replay's time in group keys).
        let current = keys[key]!.version
        if from < current {
            var best: (Writer, UInt64, UInt64)?
            for (other, write) in keys[key]!.writes where other != writer && write.version > from {
                // The other writer whose write made the highest version; ties cannot happen (versions are unique).
                if best == nil || write.version > best!.1 { best = (other, write.version, write.seq) }
            }
            if let best { lost = (from, seenBefore, current, best.0, best.2) }
        }
        let version = current + 1
        keys[key]!.version = version
        keys[key]!.writes[writer] = (version, seq)
        seen[writer, default: [:]][key] = Seen(version: version, seq: seq)
        return lost
    }
}
