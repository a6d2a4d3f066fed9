internal import LifecycleLogPlatform

/// Appends events to a trace file.
///
/// Each call to ``append(_:)`` writes its events in one LMDB write
/// transaction, so they land all together or not at all. When the map is
/// full it grows and the transaction runs again: no event is lost or stored
/// twice.
///
/// A writer is not thread-safe: use it from one thread at a time, or record
/// through `LifecycleRecorder`, which may be called from any thread.
///
/// ```swift
/// let writer = try TraceWriter(path: "session.lmdb")
/// try writer.append([LifecycleEvent(t: 0, .launch(.init(platform: .iOS, scenes: [])))])
/// ```
public final class TraceWriter {
    /// The file this writer appends to.
    public let path: String
    let environment: LMDBEnvironment
    let databases: TraceDatabases
    private var symbols = SymbolTable()
    /// The seq of the last event stored when this writer last opened or appended (0 for an empty trace);
    /// other writers may have appended since.
    public private(set) var lastSeq: UInt64 = 0
    /// The `t` of the last stored event (0 for an empty trace): appended events must not be earlier.
    public private(set) var lastTime: Double = 0
    /// The interchange format version of the trace (its `trace-version`):
    /// 1, or 2 once it holds version-2 data or was imported from a version-2 trace.
    public private(set) var formatVersion: Int = 1

    /// How a writer shares its file.
    public enum Sharing: Sendable {
        /// Other processes may read (and append) at the same time, through
        /// LMDB's lock file (`PATH-lock`), as a recorder does.
        case shared
        /// Only this writer uses the file (`MDB_NOLOCK`): for a new file that
        /// nobody else can see yet. No lock file is created.
        case exclusive
    }

    /// Opens the trace at `path` for appending, creating it when missing.
    ///
    /// Before the first write it checks the parts of the file that appending
    /// rewrites (the free-page list, the database records, the path to the last
    /// records), so a damaged trace is refused with `corruptTrace` rather than
    /// crashing the process inside liblmdb.
    ///
    /// - Parameters:
    ///   - path: the trace file; created when missing.
    ///   - sharing: whether other processes may use the file meanwhile.
    ///   - initialMapSize: the LMDB map size to start with, in bytes; the map
    ///     doubles whenever it fills, so this only matters for tests and tuning.
    /// - Throws: `LifecycleLogError` (`io`, `notATrace`, `unsupportedVersion`, `corruptTrace`, `storage`).
    public init(path: String, sharing: Sharing = .shared, initialMapSize: Int = 64 << 20) throws {
        self.path = path
        do {
            if sharing == .shared { try Self.createIfMissing(path) }
            let environment = try LMDBEnvironment.open(path: path, mode: sharing == .shared ? .readWriteShared : .readWriteExclusive,
                                                       initialMapSize: initialMapSize)
            self.environment = environment
            var table = SymbolTable()
            var last: UInt64 = 0
            var lastT: Double = 0
            var version = 1
            databases = try environment.databases.withLock { cached in
                // The open check: liblmdb reads the free-page list and the path to the last
                // records without the fault guard while it appends, and a broken page there
                // would abort the process (the app, for a recorder). Read them under the guard
                // first, once per environment, and refuse a damaged trace with an error.
                if cached == nil {
                    // The last page and transaction must be those of the snapshot checked: another
                    // writer may commit between reading them and starting the read transaction
                    // (issue 22: a writer starting beside others took an intact trace for damaged).
                    // Bounded in time, not in tries: on a starved machine other writers can commit in the
                    // window between two reads a thousand times in a row (a flaky test under load).
                    var attempts = 0
                    let deadline = ContinuousClock.now + .seconds(10)
                    while true {
                        let last = environment.lastCommit
                        let checked = try environment.read { txn -> Bool in
                            guard txn.id == last.transaction else { return false }
                            try txn.checkFreePages(lastPage: last.page, lastTransaction: last.transaction)
                            return true
                        }
                        if checked { break }
                        attempts += 1
                        if ContinuousClock.now >= deadline {
                            throw LifecycleLogError(.storage, "other writers committed throughout the open check (\(attempts) tries in 10 s); open it again", path: path)
                        }
                        // Yield at first; then sleep a little, so that the writers' commits leave a window.
                        if attempts < 100 { sched_yield() } else { usleep(UInt32(min(attempts / 100, 10)) * 100) }
                    }
                }
                // Cached only after the commit: handles opened in an aborted transaction are gone.
                let opened = try environment.write { txn in
                    table = SymbolTable()
                    let dbs: TraceDatabases
                    if let cached {
                        dbs = cached
                    } else if try txn.openDatabase(TraceLayout.metaDatabase, create: false) != nil {
                        dbs = try TraceDatabases.open(in: txn, path: path)
                    } else if try txn.count(LMDBDatabase(dbi: 1)) == 0 {  // MAIN_DBI (1) lists named databases; empty means a new file
                        dbs = try TraceDatabases.create(in: txn)
                    } else {
                        throw LifecycleLogError(.notATrace, "an LMDB file without LifecycleLog metadata, not a trace; choose another file name", path: path)
                    }
                    if cached == nil { try txn.checkDatabaseFlags([dbs.meta, dbs.symbols, dbs.events]) }
                    try dbs.loadSymbols(into: &table, in: txn, path: path, forWriting: true)
                    version = try dbs.formatVersion(in: txn)
                    if let key = try txn.lastKey(dbs.events) {
                        last = key.withUnsafeBytes { TraceLayout.seq(fromKey: $0) } ?? 0
                        lastT = try key.withUnsafeBytes { k in
                            try txn.get(dbs.events, key: k) { try dbs.decode($0, seq: last, symbols: table).t }
                        } ?? 0
                    }
                    if cached == nil { try Self.checkSeqs(dbs.events, last: last, in: txn, path: path) }
                    return dbs
                }
                cached = opened
                return opened
            }
            symbols = table
            lastSeq = last
            lastTime = lastT
            formatVersion = version
        } catch let error as LifecycleLogError {
            throw error.at(path: path)
        }
    }

    /// The open check's part for the events: their seqs must run 1, 2, … up to
    /// the last one without a gap, and every page holding them must read. A
    /// write touches only the path to the last event, so a zeroed leaf in the
    /// middle, or records lost from it, would otherwise be appended to as if
    /// the trace were whole. The count (from the database record) is compared
    /// first; then every key is read under the fault guard.
    static func checkSeqs(_ events: LMDBDatabase, last: UInt64, in txn: borrowing LMDBTransaction, path: String) throws {
        func damaged(_ what: String) -> LifecycleLogError {
            LifecycleLogError(.corruptTrace, "\(what); the trace is damaged: record into a new file (replay export --salvage recovers what it can)", path: path)
        }
        let count = try txn.count(events)
        guard UInt64(count) == last else {
            throw damaged("it holds \(count) events but its last seq is \(last), so seqs are missing")
        }
        var expected: UInt64 = 1
        do {
            try txn.forEachBatch(events, capacity: 1024) { keys, _ in
                for key in keys {
                    let seq = key.mv_size == 8 ? UnsafeRawBufferPointer(start: key.mv_data, count: 8).loadUnaligned(as: UInt64.self).bigEndian : 0
                    guard seq == expected else { throw damaged("seq \(expected) is missing (the next stored key is \(seq))") }
                    expected += 1
                }
                return true
            }
        } catch let error as LifecycleLogError where error.code == .corruptTrace && !error.message.contains("record into a new file") {
            throw damaged("after seq \(expected - 1): \(error.message)")
        }
        guard expected - 1 == last else { throw damaged("seqs after \(expected - 1) are missing") }
    }

    /// Creates an empty trace at `path` unless a file is there, so that a
    /// file at `path` always holds trace metadata even if this process is
    /// killed while creating it: the trace is built beside it and published
    /// with `link`, which never replaces a file another process created first.
    static func createIfMissing(_ path: String) throws {
        if access(path, F_OK) == 0 { return }
        let temporary = TraceInterchange.temporaryPath(beside: path)
        defer { unlink(temporary) }
        do {
            let env = try LMDBEnvironment.open(path: temporary, mode: .readWriteExclusive, initialMapSize: 1 << 20)
            _ = try env.write { txn in try TraceDatabases.create(in: txn) }
            try env.sync()
        } catch let error as LifecycleLogError {
            // Named by the path given, never the temporary file's (issue 30: 12).
            if error.lmdbStatus == ENOENT {
                throw LifecycleLogError(.io, "cannot create the trace file: its folder does not exist; check the path", path: path, lmdbStatus: ENOENT)
            }
            throw error.naming(path, insteadOf: temporary)
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw LMDBCall.error("link", errno, path: path)
        }
    }

    /// Appends `events` in one transaction, with seqs following the trace's
    /// last stored seq, read inside that transaction: any number of writers,
    /// in any processes, may append to one trace, and their batches interleave
    /// whole. An event earlier than the trace's last `t` (another writer's) is
    /// stored at that `t`.
    ///
    /// - Returns: the seq of the last appended event.
    /// - Throws: `LifecycleLogError`; on a throw nothing of this call is stored. An event that is
    ///   not valid (spec/trace-format.md: a `scene` key without its window, a `document` member on
    ///   another scope, …) is `invalidInput`, naming its place in `events` and the field, with the
    ///   message the JSON Lines decoder and the recorder give.
    ///
    /// Events that use trace format version 2 data (`LifecycleEvent/process`, `kill`,
    /// the new fields and values) make the trace a version-2 trace (stored
    /// layout 2) in the same transaction.
    @discardableResult
    public func append<C: Collection>(_ events: C) throws -> UInt64 where C.Element == LifecycleEvent {
        try append(events, formatVersion: 1)
    }

    /// ``append(_:formatVersion:)`` of an array, not generic: what `replay record`, `merge` and
    /// import in LifecycleLog call, from another module, where the generic one would run
    /// unspecialized (about 9% more instructions for `replay record`). Passed on as a slice,
    /// which the generic one takes in place as it takes an array.
    @discardableResult
    package func append(_ events: [LifecycleEvent], formatVersion declared: Int) throws -> UInt64 {
        try append(events[...], formatVersion: declared)
    }

    /// ``append(_:)`` of events read from a trace of interchange format
    /// `formatVersion`: with 2 the trace becomes a version-2 trace even when
    /// these events use nothing of version 2, so that export gives back its header.
    @discardableResult
    package func append<C: Collection>(_ events: C, formatVersion declared: Int) throws -> UInt64 where C.Element == LifecycleEvent {
        // The one validation of events (LifecycleEvent.validationProblem), before anything is written.
        for (i, event) in events.enumerated() {
            if let problem = event.validationProblem {
                throw LifecycleLogError(.invalidInput, "event \(i + 1) of the batch (\(event.name)) is not valid and nothing of the batch was stored: \(problem)", path: path)
            }
        }
        let mark = symbols.count
        environment.clearStaleReaders()
        // The loop works on locals: a class's stored properties would be
        // checked for exclusive access on every event. They are moved out
        // (not copied, which would make the first change copy the whole table)
        // and put back below.
        var symbols = SymbolTable()
        swap(&symbols, &self.symbols)
        var scratch = ByteWriter()
        var last: Double?
        var version = formatVersion
        var appendedLast: UInt64 = lastSeq
        var traceLastTime = lastTime
        let knownSeq = lastSeq
        let knownTime = lastTime
        let path = path
        do {
            try environment.write { txn in
                symbols.truncate(to: mark)  // a retry after map growth starts from the committed symbols
                // Other processes may append to this trace (recorders, `replay record`, the collector):
                // liblmdb's write lock serializes their transactions, and the next seq, the symbols and
                // the last t are read here, inside this one, never from what this writer remembers.
                let storedSeq = try txn.lastKey(databases.events).flatMap { key in key.withUnsafeBytes { TraceLayout.seq(fromKey: $0) } } ?? 0
                var floor = knownTime
                if storedSeq != knownSeq {
                    // Another writer appended since this one last did: take in its symbols (always
                    // appended in the transaction of the events using them) and its last t.
                    try databases.loadSymbols(into: &symbols, in: txn, path: path, forWriting: true)
                    floor = try TraceLayout.seqKey(storedSeq).withUnsafeBytes { k in
                        try txn.get(databases.events, key: k) { try databases.decode($0, seq: storedSeq, symbols: symbols).t }
                    } ?? 0
                    version = try databases.formatVersion(in: txn)
                }
                traceLastTime = floor
                let firstSeq = storedSeq + 1
                var seq = firstSeq
                var needsVersion2 = false
                // Arrays and slices lend their elements in place; other collections are copied from.
                let lent: Void? = try events.withContiguousStorageIfAvailable { buffer in
                    guard let first = buffer.baseAddress else { return }
                    for i in 0..<buffer.count {
                        if try Self.put(first + i, seq: seq, floor: floor, in: txn, databases, symbols: &symbols, scratch: &scratch) { needsVersion2 = true }
                        seq += 1
                    }
                }
                if lent == nil {
                    for event in events {
                        if try withUnsafePointer(to: event, { try Self.put($0, seq: seq, floor: floor, in: txn, databases, symbols: &symbols, scratch: &scratch) }) {
                            needsVersion2 = true
                        }
                        seq += 1
                    }
                }
                last = events.isEmpty ? nil : max(floor, events[events.index(events.endIndex, offsetBy: -1)].t)
                appendedLast = seq - 1
                let needed = max(declared, needsVersion2 ? 2 : 1)
                if needed > 1 { version = try databases.raiseFormatVersion(to: needed, in: txn) }
            }
        } catch let error as LifecycleLogError {
            symbols.truncate(to: mark)
            self.symbols = symbols
            throw error.at(path: path)
        }
        self.symbols = symbols
        formatVersion = version
        lastSeq = appendedLast
        lastTime = last ?? traceLastTime
        return lastSeq
    }

    /// Encodes `event` (interning new names, which it stores too) and stores it under `seq`;
    /// returns whether it holds version-2 data.
    @inline(__always)
    private static func put(_ event: UnsafePointer<LifecycleEvent>, seq: UInt64, floor: Double, in txn: borrowing LMDBTransaction, _ databases: TraceDatabases,
                            symbols: inout SymbolTable, scratch: inout ByteWriter) throws -> Bool {
        if event.pointee.t < floor {
            // Another writer's events came first: `t` never goes backwards in the trace, so this
            // one is stored at the last event's `t` (as the collector stores a late connection's).
            var moved = event.pointee
            moved.t = floor
            return try withUnsafePointer(to: moved) { try store($0, seq: seq, in: txn, databases, symbols: &symbols, scratch: &scratch) }
        }
        return try store(event, seq: seq, in: txn, databases, symbols: &symbols, scratch: &scratch)
    }

    @inline(__always)
    private static func store(_ event: UnsafePointer<LifecycleEvent>, seq: UInt64, in txn: borrowing LMDBTransaction, _ databases: TraceDatabases,
                              symbols: inout SymbolTable, scratch: inout ByteWriter) throws -> Bool {
        scratch.reset()
        let before = symbols.count
        let needsVersion2 = EventCodec.encode(event, into: &scratch, symbols: &symbols)
        for id in before..<symbols.count {
            let key = TraceLayout.symbolKey(UInt32(id))
            var value = Array(symbols.strings[id].utf8)
            if databases.checksummed {
                let c = value.withUnsafeBytes { RecordChecksum.trailer(key: UInt64(id), $0) }
                value += [c.0, c.1, c.2, c.3]
            }
            try key.withUnsafeBytes { k in
                try value.withUnsafeBytes { v in
                    try txn.put(databases.symbols, key: k, value: v, append: true)
                }
            }
        }
        if databases.checksummed {
            let c = scratch.withUnsafeBytes { RecordChecksum.trailer(key: seq, $0) }
            scratch.byte(c.0); scratch.byte(c.1); scratch.byte(c.2); scratch.byte(c.3)
        }
        var key = seq.bigEndian  // on the stack: no allocation per event
        try withUnsafeBytes(of: &key) { k in
            try scratch.withUnsafeBytes { v in try txn.put(databases.events, key: k, value: v, append: true) }
        }
        return needsVersion2
    }

    /// Forces what was appended to disk (`mdb_env_sync`).
    public func sync() throws { try environment.sync() }
}
