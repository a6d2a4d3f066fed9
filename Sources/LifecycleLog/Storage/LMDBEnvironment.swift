import CLMDB

/// How an ``LMDBEnvironment`` opens its file.
enum LMDBOpenMode: Sendable {
    /// Read only, with `MDB_RDONLY | MDB_NOLOCK`: works on a read-only file
    /// system and creates no `-lock` file beside the trace.
    case readOnly
    /// Read only, registering as a reader in the existing `-lock` file of a
    /// trace that a recorder may be appending to, so that the writer never
    /// reuses pages this reader still sees. Creates no file.
    case readOnlyShared
    /// Read and write, sharing the file with other processes through LMDB's
    /// `-lock` file (the recorder, so that `replay` can read while it records).
    case readWriteShared
    /// Read and write by this process alone, with `MDB_NOLOCK`: used for a new
    /// file that nobody else can see yet (import into a temporary file).
    case readWriteExclusive
}

/// A thin, internal owner of one `MDB_env` in one file (`MDB_NOSUBDIR`).
///
/// All transactions are scoped to closures: ``read(_:)`` and ``write(_:)``
/// begin a transaction, run the closure, and commit, or abort when the
/// closure throws. ``write(_:)`` grows the map and runs the closure again
/// when LMDB reports `MDB_MAP_FULL`, so the caller's closure must be safe to
/// run again from the start (it sees a fresh transaction each time).
final class LMDBEnvironment {
    // `unsafe`: the raw handle; every use is in this file or Transaction.swift.
    let handle: OpaquePointer
    let path: String
    let mode: LMDBOpenMode
    private(set) var mapSize: Int

    /// Named databases the trace uses.
    static let maxDatabases: UInt32 = 8

    init(path: String, mode: LMDBOpenMode, initialMapSize: Int = 64 << 20) throws {
        try LMDBFileCheck.check(path)
        var env: OpaquePointer?
        try LMDBCall.check("mdb_env_create", mdb_env_create(&env), path: path)
        // `!`: mdb_env_create succeeded, so it set the handle.
        let handle = env!
        self.handle = handle
        self.path = path
        self.mode = mode
        self.mapSize = initialMapSize
        // From here every stored property is set, so a throw still runs
        // deinit, which closes the handle: it must not be closed here too.
        try LMDBCall.check("mdb_env_set_maxdbs", mdb_env_set_maxdbs(handle, Self.maxDatabases), path: path)
        var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
        switch mode {
        case .readOnly:
            flags |= UInt32(MDB_RDONLY | MDB_NOLOCK)
        case .readOnlyShared:
            flags |= UInt32(MDB_RDONLY)
        case .readWriteShared:
            try LMDBCall.check("mdb_env_set_mapsize", mdb_env_set_mapsize(handle, initialMapSize), path: path)
        case .readWriteExclusive:
            flags |= UInt32(MDB_NOLOCK)
            try LMDBCall.check("mdb_env_set_mapsize", mdb_env_set_mapsize(handle, initialMapSize), path: path)
        }
        try LMDBCall.check("mdb_env_open", mdb_env_open(handle, path, flags, 0o644), path: path)
        var info = MDB_envinfo()
        if mdb_env_info(handle, &info) == MDB_SUCCESS { mapSize = info.me_mapsize }
    }

    deinit { mdb_env_close(handle) }

    /// Flushes written data to disk (`mdb_env_sync` with force).
    func sync() throws {
        try LMDBCall.check("mdb_env_sync", mdb_env_sync(handle, 1), path: path)
    }

    /// Runs `body` in a read-only transaction. The transaction and every byte
    /// it hands out are valid only inside `body`. On success the transaction
    /// is committed rather than aborted, because LMDB keeps the database
    /// handles opened in a transaction only when it commits.
    func read<R>(_ body: (borrowing LMDBTransaction) throws -> R) throws -> R {
        let txn = try begin(readOnly: true)
        let result: R
        do {
            result = try body(txn)
        } catch {
            mdb_txn_abort(txn.handle)
            throw error
        }
        try LMDBCall.check("mdb_txn_commit", mdb_txn_commit(txn.handle), path: path)
        return result
    }

    /// Runs `body` in a write transaction and commits it; aborts and rethrows
    /// when `body` throws. When the map is full, the transaction is aborted,
    /// the map doubled, and `body` run again in a new transaction.
    func write<R>(_ body: (borrowing LMDBTransaction) throws -> R) throws -> R {
        precondition(!isReadOnly, "write transaction on a read-only trace")  // programmer error: caller checks mode
        while true {
            let txn = try begin(readOnly: false)
            do {
                let result = try body(txn)
                try LMDBCall.check("mdb_txn_commit", mdb_txn_commit(txn.handle), path: path)
                return result
            } catch let error as LifecycleLogError where error.lmdbStatus == MDB_MAP_FULL {
                // A failed commit has already freed the transaction; abort only otherwise.
                if error.function != "mdb_txn_commit" { mdb_txn_abort(txn.handle) }
                try grow()
            } catch {
                if (error as? LifecycleLogError)?.function != "mdb_txn_commit" { mdb_txn_abort(txn.handle) }
                throw error
            }
        }
    }

    var isReadOnly: Bool {
        switch mode {
        case .readOnly, .readOnlyShared: return true
        case .readWriteShared, .readWriteExclusive: return false
        }
    }

    private func grow() throws {
        let newSize = mapSize < (1 << 30) ? mapSize * 2 : mapSize + (1 << 30)
        try LMDBCall.check("mdb_env_set_mapsize", mdb_env_set_mapsize(handle, newSize), path: path)
        mapSize = newSize
    }

    private func begin(readOnly: Bool) throws -> LMDBTransaction {
        var txn: OpaquePointer?
        var status = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        if status == MDB_MAP_RESIZED {
            // Another process grew the map: adopt its size and try once more.
            try LMDBCall.check("mdb_env_set_mapsize", mdb_env_set_mapsize(handle, 0), path: path)
            status = mdb_txn_begin(handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        }
        try LMDBCall.check("mdb_txn_begin", status, path: path)
        // `!`: mdb_txn_begin succeeded, so it set the handle.
        return LMDBTransaction(handle: txn!, path: path)
    }
}
