import CLMDB
import CLMDBGuard

internal import LifecycleLogPlatform

/// A trace file opened for reading.
///
/// Opening is read-only in LMDB's strictest sense (`MDB_RDONLY | MDB_NOLOCK`):
/// it works on a read-only file system and never creates or changes a file,
/// so fixtures in a checkout never gain a `*.lmdb-lock`. A trace that is being
/// recorded (a writable `PATH-lock` file beside it) is read through that lock
/// file instead, still without creating anything; each read then sees a
/// consistent prefix of what the recorder committed. A recorder that starts
/// after the trace was opened (so without the lock) is noticed before it can
/// overwrite what this reader sees: the read goes on from a fresh snapshot,
/// through the lock file (ARCHITECTURE.md, "Files, processes and threads").
///
/// ```swift
/// let trace = try Trace(path: "session.lmdb")
/// try trace.forEachEvent { seq, event in
///     print(seq, event.name)
/// }
/// ```
public final class Trace {
    /// The file this trace was opened from.
    public let path: String
    @usableFromInline private(set) var environment: LMDBEnvironment
    @usableFromInline private(set) var databases: TraceDatabases
    @usableFromInline private(set) var symbols = SymbolTable()

    /// How many fresh snapshots a read takes before it gives up on a trace
    /// that a writer without LMDB's lock file keeps changing.
    static let maximumRereads = 50

    /// Opens the trace at `path` for reading.
    ///
    /// - Throws: `LifecycleLogError` with code `io` (missing or unreadable
    ///   file), `notATrace`, `unsupportedVersion` or `corruptTrace`.
    public init(path: String) throws {
        self.path = path
        do {
            var table = SymbolTable()
            var attempts = 0
            while true {
                do {
                    (environment, databases) = try Self.open(path, symbols: &table)
                    break
                } catch is LMDBSnapshotOverrun {
                    attempts += 1
                    try Self.checkRereads(attempts, path: path)
                }
            }
            symbols = table
        } catch let error as LifecycleLogError {
            throw Self.explained(error, path: path).at(path: path)
        }
    }

    /// Opens the environment (through the lock file when there is one) and
    /// the databases, and loads the symbols.
    private static func open(_ path: String, symbols table: inout SymbolTable) throws -> (LMDBEnvironment, TraceDatabases) {
        // A recorder that shares the file keeps LMDB's lock file beside it; reading
        // through that lock keeps this reader's snapshot safe while it appends.
        let shared = access(path + "-lock", R_OK | W_OK) == 0
        let environment = try LMDBEnvironment.open(path: path, mode: shared ? .readOnlyShared : .readOnly)
        // mdb_dbi_open must not run in two transactions at once: open the
        // databases once per environment, under its lock.
        let databases = try environment.databases.withLock { cached in
            try environment.read { txn in
                let dbs = try cached ?? TraceDatabases.open(in: txn, path: path)
                try dbs.loadSymbols(into: &table, in: txn, path: path)
                cached = dbs
                return dbs
            }
        }
        return (environment, databases)
    }

    private static func checkRereads(_ attempts: Int, path: String) throws {
        guard attempts <= maximumRereads else {
            throw LifecycleLogError(.storage,
                "the trace kept changing while it was read: a program writes to it without LMDB's lock file (\(path)-lock), so no reader can read it safely; read it once that program has finished",
                path: path)
        }
    }

    /// After a read of an unregistered snapshot was overrun by a writer:
    /// reopens (through the lock file once the writer has made one), so that
    /// the next read starts from a fresh snapshot.
    @usableFromInline func reopen(after attempts: Int) throws {
        try Self.checkRereads(attempts, path: path)
        var table = SymbolTable()
        (environment, databases) = try Self.open(path, symbols: &table)
        if table.count > symbols.count { symbols = table }
    }

    /// Damage found by the fault guard (liblmdb or a copy sent outside the
    /// file) in a file that is shorter now than its meta page says: it was
    /// truncated, maybe while it was being read. Says so instead.
    @usableFromInline static func explained(_ error: LifecycleLogError, path: String) -> LifecycleLogError {
        guard error.lmdbStatus == LMDB_GUARD_DAMAGED else { return error }
        do {
            try LMDBFileCheck.check(path, reading: true)
        } catch var now as LifecycleLogError {
            now.seq = error.seq
            now.message = "the trace changed while it was read: " + now.message
            return now
        } catch {}
        return error
    }

    /// Runs `body` in a read transaction; when a writer overran the snapshot
    /// (``LMDBSnapshotOverrun``), again in a fresh one. `body` must be safe to
    /// run again.
    private func read<R>(_ body: (borrowing LMDBTransaction) throws -> R) throws -> R {
        var attempts = 0
        while true {
            do {
                return try environment.read(body)
            } catch is LMDBSnapshotOverrun {
                attempts += 1
                try reopen(after: attempts)
            } catch let error as LifecycleLogError {
                throw Self.explained(error, path: path)
            }
        }
    }

    /// The interchange format version of the trace's events (its stored
    /// `trace-version`): 1, or 2 for a trace with version-2 data or imported
    /// from a version-2 trace. Export writes it in the header.
    public var formatVersion: Int {
        get throws { try read { txn in try databases.formatVersion(in: txn) } }
    }

    /// The number of events in the trace (the last seq).
    public var eventCount: Int {
        get throws { try read { txn in try txn.count(databases.events) } }
    }

    /// Calls `body` with each event from `seq` on, in order, until the end of
    /// the trace or until `body` returns `false`. All events are read in one
    /// read transaction, so they form a consistent prefix even while the trace
    /// is being recorded.
    ///
    /// - Throws: `LifecycleLogError` (`corruptTrace` naming the seq of a
    ///   damaged event), or whatever `body` throws.
    public func forEachEvent(from seq: UInt64 = 1, _ body: (_ seq: UInt64, _ event: LifecycleEvent) throws -> Bool) throws {
        try withoutActuallyEscaping(body) { body in
            var events = EventConsumer(body: body)
            try forEachRecord(from: seq, into: &events)
        }
    }

    /// The one loop over stored records: one read transaction, keys checked
    /// to run on without gaps, damage reported with the file and seq.
    /// Generic over what takes the records (``RecordConsumer``), not closures: specialized for
    /// each, the loop calls the decoder and the consumer directly, where closures cost two indirect
    /// calls an event (issue 31: 6, 7 M instructions of the 200 k-event benchmark's reader).
    @inlinable @inline(__always)
    package func forEachRecord<Consumer: RecordConsumer>(from seq: UInt64, into consumer: inout Consumer) throws {
        var expected = seq
        var attempts = 0
        while true {
            do {
                try environment.read { txn in
                    try databases.loadSymbols(into: &symbols, in: txn, path: path)
                    let symbols = self.symbols
                    consumer.prepare(symbols)
                    let path = self.path
                    let databases = self.databases
                    do {
                        try TraceLayout.seqKey(expected).withUnsafeBytes { from in
                            // Each batch is copied out of the map, and checked against a writer
                            // that may have overrun an unregistered snapshot, before it is read here.
                            try txn.forEachBatch(databases.events, from: from) { keys, values in
                                for i in keys.indices {
                                    let key = UnsafeRawBufferPointer(start: keys[i].mv_data, count: keys[i].mv_size)
                                    guard TraceLayout.seq(fromKey: key) == expected else {
                                        throw LifecycleLogError(.corruptTrace, "expected the event with seq \(expected) next, but the stored keys skip or repeat; the file is damaged",
                                                                path: path, seq: expected)
                                    }
                                    let event: Consumer.Decoded
                                    do {
                                        let record = UnsafeRawBufferPointer(start: values[i].mv_data, count: values[i].mv_size)
                                        event = try consumer.decode(databases.body(ofRecord: record, seq: expected), symbols: symbols)
                                    } catch var error as LifecycleLogError {
                                        error.path = path
                                        error.seq = expected
                                        throw error
                                    }
                                    expected += 1
                                    guard try consumer.take(seq: expected - 1, event) else { return false }
                                }
                                return true
                            }
                        }
                    } catch var error as LifecycleLogError where error.code == .corruptTrace && error.seq == nil {
                        error.seq = expected  // damage met while looking for this event
                        throw error
                    }
                }
                return
            } catch is LMDBSnapshotOverrun {
                // Every event before `expected` was handed over from checked copies:
                // go on from there in a fresh snapshot (an append-only trace keeps them).
                attempts += 1
                try reopen(after: attempts)
            } catch let error as LifecycleLogError {
                throw Self.explained(error, path: path)
            }
        }
    }

    /// Calls `body` with each event, in order.
    public func forEachEvent(_ body: (_ seq: UInt64, _ event: LifecycleEvent) throws -> Void) throws {
        try forEachEvent(from: 1) { seq, event in try body(seq, event); return true }
    }
}

/// What ``Trace``'s one loop over stored records hands each record to: it decodes the record's
/// body, then takes the decoded event. Errors of `decode` are named with the trace's path and the
/// record's seq; those of `take` pass through.
@usableFromInline package protocol RecordConsumer {
    associatedtype Decoded
    /// The trace's symbols, before the first record of each read transaction.
    mutating func prepare(_ symbols: SymbolTable)
    /// One record's body (checked against its checksum in layout 3).
    mutating func decode(_ body: UnsafeRawBufferPointer, symbols: SymbolTable) throws -> Decoded
    /// The event at `seq`; `false` stops the loop.
    mutating func take(seq: UInt64, _ event: Decoded) throws -> Bool
}

/// ``Trace/forEachEvent(from:_:)``: each event as a public ``LifecycleEvent``.
private struct EventConsumer: RecordConsumer {
    let body: (UInt64, LifecycleEvent) throws -> Bool
    func prepare(_ symbols: SymbolTable) {}
    func decode(_ bytes: UnsafeRawBufferPointer, symbols: SymbolTable) throws -> LifecycleEvent {
        try EventCodec.decode(bytes, symbols: symbols)
    }
    func take(seq: UInt64, _ event: LifecycleEvent) throws -> Bool { try body(seq, event) }
}
