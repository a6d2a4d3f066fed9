import CLMDB
import CLMDBGuard

/// Thrown by ``LMDBTransaction/checkSnapshot()`` when a writer may have
/// reused pages of an unregistered reader's snapshot: what was copied since
/// the last check cannot be trusted, the file is not damaged. Never leaves
/// ``Trace``, which reads again from a fresh snapshot.
@usableFromInline struct LMDBSnapshotOverrun: Error {}

/// A named database inside a trace's environment.
@usableFromInline struct LMDBDatabase: Sendable, Hashable {
    let dbi: MDB_dbi
}

/// One LMDB transaction, lent to a closure by ``LMDBEnvironment/read(_:)`` or
/// ``LMDBEnvironment/write(_:)``. It is non-copyable so that it cannot escape
/// the closure that was handed it.
///
/// Byte buffers passed to the callbacks of ``get(_:key:_:)``,
/// ``forEach(_:from:_:)`` and ``forEachBatch(_:from:capacity:_:)`` are
/// copies, made inside the fault guard (the file may shrink under a reader
/// at any moment): they are valid only during the callback and must be
/// copied to be kept. Nothing outside `CLMDBGuard` reads the map.
@usableFromInline struct LMDBTransaction: ~Copyable {
    let handle: OpaquePointer
    let path: String
    /// A read transaction of an environment without LMDB's lock file: no
    /// writer knows of it, so ``checkSnapshot()`` checks its copies.
    let unregistered: Bool

    /// Opens (or, in a write transaction with `create`, creates) a named
    /// database. Returns `nil` when it does not exist and `create` is false.
    func openDatabase(_ name: String, create: Bool) throws -> LMDBDatabase? {
        var dbi: MDB_dbi = 0
        let status = lmdb_guard_dbi_open(handle, name, create ? UInt32(MDB_CREATE) : 0, &dbi)
        if status == MDB_NOTFOUND { return nil }
        try LMDBCall.check("mdb_dbi_open", status, path: path)
        return LMDBDatabase(dbi: dbi)
    }

    /// Calls `body` with the value stored under `key`, or returns `nil` when
    /// there is none. The buffer is valid only inside `body`.
    func get<R>(_ db: LMDBDatabase, key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let status = lmdb_guard_get(handle, db.dbi, &k, &v)
        if status == MDB_NOTFOUND { return nil }
        try LMDBCall.check("mdb_get", status, path: path)
        var value = [UInt8]()
        try copy(v, into: &value)
        try checkSnapshot()
        return try value.withUnsafeBytes { try body($0) }
    }

    /// Copies `val` out of the map, inside the fault guard: the file may have
    /// been truncated since liblmdb returned it.
    private func copy(_ val: MDB_val, into buffer: inout [UInt8]) throws {
        buffer.removeAll(keepingCapacity: true)
        guard val.mv_size > 0 else { return }
        buffer.reserveCapacity(val.mv_size)
        var status: Int32 = MDB_SUCCESS
        buffer.append(contentsOf: repeatElement(0, count: val.mv_size))
        buffer.withUnsafeMutableBytes { status = lmdb_guard_copy($0.baseAddress, val.mv_data, val.mv_size) }
        try LMDBCall.check("mdb_cursor_get", status, path: path)
    }

    /// For a reader without LMDB's lock file (``LMDBOpenMode/readOnly``),
    /// checks that what it has copied so far is still this snapshot's: a
    /// writer that started after the reader opened does not see it, and may
    /// reuse a page of the snapshot from the third transaction it commits
    /// after it (pages freed by transaction `n` are reused from `n + 2` on).
    /// So the copies are good while the last committed transaction is at most
    /// this one's + 1; otherwise this throws ``LMDBSnapshotOverrun`` and the
    /// reader starts again from a fresh snapshot (``Trace``).
    func checkSnapshot() throws {
        guard unregistered else { return }
        var last = 0
        try LMDBCall.check("mdb_env_info", lmdb_guard_last_txnid(mdb_txn_env(handle), &last), path: path)
        if last > mdb_txn_id(handle) + 1 { throw LMDBSnapshotOverrun() }
    }

    /// Stores `value` under `key`. With `append`, the key must sort after
    /// every key already in the database (`MDB_APPEND`), which makes appends
    /// of ascending seqs cheap.
    func put(_ db: LMDBDatabase, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, append: Bool) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        try LMDBCall.check("mdb_put", mdb_put(handle, db.dbi, &k, &v, append ? UInt32(MDB_APPEND) : 0), path: path)
    }

    /// The number of entries in a database.
    func count(_ db: LMDBDatabase) throws -> Int {
        var stat = MDB_stat()
        try LMDBCall.check("mdb_stat", lmdb_guard_stat(handle, db.dbi, &stat), path: path)
        return stat.ms_entries
    }

    /// Visits entries in key order, starting at the first key not below
    /// `from` (or the first key), until `body` returns `false`. The buffers
    /// are valid only during each call.
    func forEach(
        _ db: LMDBDatabase, from: UnsafeRawBufferPointer? = nil,
        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var cursor: OpaquePointer?
        try LMDBCall.check("mdb_cursor_open", lmdb_guard_cursor_open(handle, db.dbi, &cursor), path: path)
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val()
        var v = MDB_val()
        var status: Int32
        if let from {
            k = MDB_val(mv_size: from.count, mv_data: UnsafeMutableRawPointer(mutating: from.baseAddress))
            status = lmdb_guard_cursor_get(cursor, &k, &v, MDB_SET_RANGE)
        } else {
            status = lmdb_guard_cursor_get(cursor, &k, &v, MDB_FIRST)
        }
        var key = [UInt8](), value = [UInt8]()
        while status == MDB_SUCCESS {
            try copy(k, into: &key)
            try copy(v, into: &value)
            try checkSnapshot()
            let keep = try key.withUnsafeBytes { key in try value.withUnsafeBytes { try body(key, $0) } }
            if !keep { return }
            status = lmdb_guard_cursor_get(cursor, &k, &v, MDB_NEXT)
        }
        if status != MDB_NOTFOUND { try LMDBCall.check("mdb_cursor_get", status, path: path) }
    }

    /// Visits entries in key order like ``forEach(_:from:_:)``, but hands
    /// them over in batches of up to `capacity`, each read and copied out of the
    /// map by one guarded call (`lmdb_guard_cursor_copy_batch`): the fault guard
    /// is set up once per batch, not once per entry. Entries before damage are handed
    /// over before the damage is thrown. Stops when `body` returns `false`.
    @usableFromInline func forEachBatch(
        _ db: LMDBDatabase, from: UnsafeRawBufferPointer? = nil, capacity: Int = 512,
        _ body: (_ keys: UnsafeBufferPointer<MDB_val>, _ values: UnsafeBufferPointer<MDB_val>) throws -> Bool
    ) throws {
        var cursor: OpaquePointer?
        try LMDBCall.check("mdb_cursor_open", lmdb_guard_cursor_open(handle, db.dbi, &cursor), path: path)
        defer { mdb_cursor_close(cursor) }
        let keys = UnsafeMutableBufferPointer<MDB_val>.allocate(capacity: capacity)
        let values = UnsafeMutableBufferPointer<MDB_val>.allocate(capacity: capacity)
        defer {
            keys.deallocate()
            values.deallocate()
        }
        var op = MDB_FIRST
        if let from {
            keys[0] = MDB_val(mv_size: from.count, mv_data: UnsafeMutableRawPointer(mutating: from.baseAddress))
            op = MDB_SET_RANGE
        }
        // Every batch is copied out of the map before `body` sees it (the file can
        // shrink under a reader at any moment): `arena` holds the copies, made inside the
        // guard as the entries are read (one guarded pass, issue 31: 6).
        var arena = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { arena.deallocate() }
        while true {
            var count: Int32 = 0
            var needed = 0
            let status = lmdb_guard_cursor_copy_batch(cursor, op, keys.baseAddress, values.baseAddress, Int32(capacity),
                                                      arena.baseAddress?.assumingMemoryBound(to: UInt8.self), arena.count,
                                                      &count, &needed)
            if count > 0 {
                let n = Int(count)
                try checkSnapshot()
                guard try body(UnsafeBufferPointer(rebasing: keys[..<n]), UnsafeBufferPointer(rebasing: values[..<n])) else { return }
            }
            switch status {
            case MDB_NOTFOUND:
                return
            case LMDB_GUARD_ARENA_FULL:
                // The cursor is on the entry that did not fit: read it again into room for it.
                if count == 0 {
                    arena.deallocate()
                    arena = .allocate(byteCount: max(needed, 2 * arena.count), alignment: 16)
                }
                op = MDB_GET_CURRENT
            default:
                try LMDBCall.check("mdb_cursor_get", status, path: path)
                op = MDB_NEXT
            }
        }
    }

    /// Reads every record of liblmdb's free-page database (`FREE_DBI`) under
    /// the guard and checks that each lists only pages inside the file
    /// (`2...lastPage`). A write transaction reads these records without the
    /// guard when it reuses pages, and would abort the process on a broken
    /// one; appending to a trace checks them first. Read transactions only:
    /// liblmdb refuses a cursor on this database in a write transaction.
    ///
    /// Each record is keyed by the transaction that freed its pages, which
    /// cannot be later than the last committed one (`lastTransaction`): a
    /// meta page damaged into an older transaction id or root (a stale tree
    /// that still reads) is caught here, before liblmdb builds on it.
    func checkFreePages(lastPage: UInt64, lastTransaction: UInt64) throws {
        var freed: UInt64 = 0
        try forEach(LMDBDatabase(dbi: 0)) { key, value in
            // A record is a transaction id, then a page list: its length, then that many page numbers (native order).
            guard key.count == 8, key.loadUnaligned(as: UInt64.self) <= lastTransaction,
                  value.count >= 8, value.count % 8 == 0,
                  value.loadUnaligned(as: UInt64.self) == UInt64(value.count / 8 - 1) else {
                throw Self.damagedFreeList(path: path)
            }
            for i in 1..<(value.count / 8) {
                let page = value.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                guard page >= 2, page <= lastPage else { throw Self.damagedFreeList(path: path) }
            }
            freed &+= UInt64(value.count / 8 - 1)
            return true
        }
        // Every page of a committed file is a meta page, a page of a tree (liblmdb's two and
        // each named database, as their records count them) or a freed page: the invariant
        // liblmdb's own audit checks. A meta page damaged into another root (a stale tree
        // that still reads, such as the empty one of the file's first transaction) breaks it.
        // Wrapping sums: the counts come from records that may be damaged into anything.
        var used = try pages(LMDBDatabase(dbi: 0)) &+ pages(LMDBDatabase(dbi: 1))
        try forEach(LMDBDatabase(dbi: 1)) { _, record in
            guard record.count == 48 else { throw Self.damagedFreeList(path: path) }  // a named database's MDB_db
            for field in [8, 16, 24] { used &+= record.loadUnaligned(fromByteOffset: field, as: UInt64.self) }
            return true
        }
        guard used &+ freed &+ 2 == lastPage &+ 1 else {
            throw LifecycleLogError(.corruptTrace,
                "the trace's pages do not add up (\(used) in use and \(freed) free, but the meta page says \(lastPage &+ 1)): its meta page or database records are damaged, so appending to it could destroy what it holds; record into a new file, and recover this one with `replay export --salvage`",
                path: path)
        }
    }

    /// The id of the committed transaction this one sees (a reader) or will commit (a writer).
    var id: UInt64 { UInt64(truncatingIfNeeded: mdb_txn_id(handle)) }  // size_t, imported as Int: a damaged id may be beyond Int

    /// The branch, leaf and overflow pages of a database.
    private func pages(_ db: LMDBDatabase) throws -> UInt64 {
        var stat = MDB_stat()
        try LMDBCall.check("mdb_stat", lmdb_guard_stat(handle, db.dbi, &stat), path: path)
        return UInt64(truncatingIfNeeded: stat.ms_branch_pages) &+ UInt64(truncatingIfNeeded: stat.ms_leaf_pages)
            &+ UInt64(truncatingIfNeeded: stat.ms_overflow_pages)
    }

    /// Checks that the trace's named databases have the flags a trace is
    /// written with (none): a damaged database record can claim duplicate
    /// keys, and liblmdb asserts on that (`mx != NULL` in `mdb_cursor_init`)
    /// inside an unguarded write. liblmdb's own two databases are checked
    /// from the meta page (``LMDBFileCheck``), as `mdb_dbi_flags` does not
    /// answer for the free-page database.
    func checkDatabaseFlags(_ named: [LMDBDatabase]) throws {
        func flags(_ dbi: MDB_dbi) throws -> UInt32 {
            var value: UInt32 = 0
            try LMDBCall.check("mdb_dbi_flags", mdb_dbi_flags(handle, dbi, &value), path: path)
            return value
        }
        guard try named.allSatisfy({ try flags($0.dbi) == 0 }) else {
            throw LifecycleLogError(.corruptTrace,
                "the trace's database records are damaged (they claim a layout no trace has), so appending to it could crash; record into a new file, and recover this one with `replay export --salvage`",
                path: path)
        }
    }

    private static func damagedFreeList(path: String) -> LifecycleLogError {
        LifecycleLogError(.corruptTrace,
            "the trace's list of free pages is damaged, so appending to it could destroy what it holds; record into a new file, and recover this one with `replay export --salvage`",
            path: path)
    }

    /// The last key of a database, copied out, or `nil` when it is empty.
    func lastKey(_ db: LMDBDatabase) throws -> [UInt8]? {
        var cursor: OpaquePointer?
        try LMDBCall.check("mdb_cursor_open", lmdb_guard_cursor_open(handle, db.dbi, &cursor), path: path)
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val()
        var v = MDB_val()
        let status = lmdb_guard_cursor_get(cursor, &k, &v, MDB_LAST)
        if status == MDB_NOTFOUND { return nil }
        try LMDBCall.check("mdb_cursor_get", status, path: path)
        return Array(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size))
    }
}
