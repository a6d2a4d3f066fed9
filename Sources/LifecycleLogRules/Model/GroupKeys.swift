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

    /// One key: its version, its saved version, and its two latest writes by different writers
    /// (all `lost-update` needs: versions only grow, so the other writer whose write made the
    /// highest version is the latest writer, or else the one before it). Constant size, whatever
    /// the number of writers that ever wrote it (issue 28: a table of every writer made each
    /// write scan every process that wrote the key before).
    struct Key: Sendable {
        var version: UInt64 = 0
        /// The version the last save covering it saved (a `save` of any process covers it).
        var saved: UInt64 = 0
        var isDirty: Bool { version > saved }
        /// The latest write (it made ``version``), and the latest write by another writer than its.
        var latest: Write?
        var latestByAnother: Write?
        /// The ``GroupKeys/epoch`` of its last write and of its last save: what a set-aside
        /// process's model has to catch up on (``LifecycleReducer``'s group catch-up).
        var writeEpoch: UInt64 = 0
        var saveEpoch: UInt64 = 0

        /// The other writer than `writer` whose write made the highest version above `base`.
        func lastWrite(byAnotherThan writer: Writer, above base: UInt64) -> Write? {
            let candidate = latest?.writer == writer ? latestByAnother : latest
            guard let candidate, candidate.version > base else { return nil }
            return candidate
        }
    }

    /// A write of a key: who, which version it made, at which seq.
    struct Write: Sendable {
        var writer: Writer
        var version: UInt64
        var seq: UInt64
    }

    /// What a writer last saw of a key, and at which event.
    struct Seen: Sendable {
        var version: UInt64
        var seq: UInt64
    }

    var keys: [Name: Key] = [:]
    /// The dirty keys: a save looks at these, not at every key.
    var dirty: Set<Name> = []
    /// What each live writer last saw, by process then instance: a launch drops its process's
    /// writers in time that follows that process's writers, not every writer of the trace.
    var seen: [Name: [Int: [Name: Seen]]] = [:]
    /// Where each live writer's last-seen versions started (its `open` or `launch`).
    var origin: [Name: [Int: Seen]] = [:]
    /// Counts the writes and saves of group keys: a set-aside process remembers the epoch it was
    /// set aside at, and catches up on the keys whose ``Key/writeEpoch`` or ``Key/saveEpoch`` is later.
    var epoch: UInt64 = 0
    /// The keys changed, with each change's epoch, oldest first: a process set aside a short while
    /// ago catches up on these instead of on every key it holds. The older half is dropped when it
    /// holds more than ``changeLogLimit`` entries and four times the keys; a process set aside
    /// before the oldest entry catches up key by key instead.
    var changes: [(epoch: UInt64, name: Name)] = []
    static let changeLogLimit = 4096

    mutating func logChange(_ name: Name) {
        if changes.count > Self.changeLogLimit, changes.count > 4 * keys.count { changes.removeFirst(changes.count / 2) }
        changes.append((epoch, name))
    }

    /// The keys changed since `since`, each once, when the log still reaches back that far and
    /// that is fewer than `limit` entries; `nil` otherwise (then catch up key by key).
    func changed(since: UInt64, limit: Int) -> [Name]? {
        guard epoch &- since <= UInt64(limit), let first = changes.first, first.epoch <= since &+ 1 else { return nil }
        // Epochs are logged in order: the first entry after `since`, by binary search.
        var low = 0, high = changes.count
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].epoch <= since { low = mid + 1 } else { high = mid }
        }
        var names: [Name] = []
        for entry in changes[low...] {
            // `!`: a logged name is a key. Each key once: at its latest change.
            let key = keys[entry.name]!
            if entry.epoch == max(key.writeEpoch, key.saveEpoch) { names.append(entry.name) }
        }
        return names
    }

    /// Whether a `group` key was read or written yet: until then nothing here is kept.
    var started = false

    var isEmpty: Bool { !started }

    /// A window opened, or a run launched (`window` ``ReplayEvent/noWindow``): it has seen
    /// every key at its current version.
    mutating func start(_ writer: Writer, seq: UInt64) {
        origin[writer.process, default: [:]][writer.instance] = Seen(version: 0, seq: seq)  // keys that appear later: version 0, seen from the start
        var snapshot: [Name: Seen] = [:]
        for (name, key) in keys { snapshot[name] = Seen(version: key.version, seq: seq) }
        seen[writer.process, default: [:]][writer.instance] = snapshot
    }

    /// A window is gone: it writes no more.
    mutating func end(_ writer: Writer) {
        seen[writer.process]?[writer.instance] = nil
        origin[writer.process]?[writer.instance] = nil
    }

    /// A process launched: the writers of its earlier run write no more (their writes still count
    /// for `lost-update`: a launch does not rewind `group` keys), and `app`, its new run's app, starts.
    mutating func launched(_ app: Writer, seq: UInt64) {
        seen[app.process] = nil
        origin[app.process] = nil
        start(app, seq: seq)
    }

    /// A process's run ended (terminate or kill): its writers write no more.
    mutating func ended(process: Name) {
        seen[process] = nil
        origin[process] = nil
    }

    /// A save covered `key`, at `version` (`nil`: its current one). Returns the version saved,
    /// or `nil` when that saves nothing new (saved versions never go down).
    mutating func save(_ key: Name, at version: UInt64?) -> UInt64? {
        guard let current = keys[key]?.version else { return nil }
        let version = min(version ?? current, current)
        guard version > keys[key]!.saved else { return nil }  // `!`: found above
        epoch += 1
        keys[key]!.saved = version
        keys[key]!.saveEpoch = epoch
        if !keys[key]!.isDirty { dirty.remove(key) }
        logChange(key)
        return version
    }

    /// The dirty keys whose names `covered` accepts, by name, with their versions.
    func dirtyKeys(_ covered: (Name) -> Bool) -> [(name: Name, version: UInt64)] {
        dirty.filter(covered).map { ($0, keys[$0]!.version) }.sorted { $0.name < $1.name }  // `!`: a dirty key is a key
    }

    /// What `writer` last saw of `key`.
    func lastSeen(_ key: Name, by writer: Writer) -> Seen {
        seen[writer.process]?[writer.instance]?[key] ?? origin[writer.process]?[writer.instance] ?? Seen(version: 0, seq: 0)
    }

    /// A read: the writer has now seen `version` (or the current one).
    mutating func read(_ key: Name, by writer: Writer, version: UInt64?, seq: UInt64) {
        let current = keys[key]?.version ?? 0
        seen[writer.process, default: [:]][writer.instance, default: [:]][key] = Seen(version: version ?? current, seq: seq)
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
        if from < current, let other = keys[key]!.lastWrite(byAnotherThan: writer, above: from) {
            lost = (from, seenBefore, current, other.writer, other.seq)
        }
        let version = current + 1
        epoch += 1
        let write = Write(writer: writer, version: version, seq: seq)
        if let latest = keys[key]!.latest, latest.writer != writer { keys[key]!.latestByAnother = latest }
        keys[key]!.latest = write
        keys[key]!.version = version
        keys[key]!.writeEpoch = epoch
        dirty.insert(key)
        logChange(key)
        seen[writer.process, default: [:]][writer.instance, default: [:]][key] = Seen(version: version, seq: seq)
        return lost
    }
}
