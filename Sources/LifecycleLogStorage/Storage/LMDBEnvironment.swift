import CLMDB
import CLMDBGuard

internal import LifecycleLogPlatform

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

    /// How much of other processes' work an environment opened this way
    /// can serve: one of a higher rank serves every mode of a lower one.
    var sharing: Int {
        switch self {
        case .readOnly: return 0
        case .readOnlyShared: return 1
        case .readWriteShared, .readWriteExclusive: return 2
        }
    }

    var isReadOnly: Bool {
        switch self {
        case .readOnly, .readOnlyShared: return true
        case .readWriteShared, .readWriteExclusive: return false
        }
    }
}

/// A thin, internal owner of one `MDB_env` in one file (`MDB_NOSUBDIR`).
///
/// All transactions are scoped to closures: ``read(_:)`` and ``write(_:)``
/// begin a transaction, run the closure, and commit, or abort when the
/// closure throws. ``write(_:)`` grows the map and runs the closure again
/// when LMDB reports `MDB_MAP_FULL`, so the caller's closure must be safe to
/// run again from the start (it sees a fresh transaction each time).
///
/// LMDB forbids opening one file twice in a process (its lock-file setup
/// relies on per-process `fcntl` locks, so a second open re-initialises the
/// lock file under the first). ``open(path:mode:initialMapSize:)`` therefore
/// hands every reader and shared writer of one file the same environment.
/// Changing the map size remaps the file, so it waits, behind ``remapLock``,
/// for this process's transactions to finish.
@usableFromInline final class LMDBEnvironment: @unchecked Sendable {
    // @unchecked Sendable: the MDB_env is opened with MDB_NOTLS, so read
    // transactions may run on any thread; `mapSize` and remaps are guarded by
    // `remapLock`, the database cache by its mutex.

    // `unsafe`: the raw handle; every use is in this file or LMDBTransaction.swift.
    let handle: OpaquePointer
    let path: String
    let mode: LMDBOpenMode
    private var currentMapSize: Int
    /// Held shared by every transaction, exclusively while the map is resized.
    private let remapLock: UnsafeMutablePointer<pthread_rwlock_t>
    /// The trace's databases once opened, so that `mdb_dbi_open` runs once per environment.
    let databases = Locked<TraceDatabases?>(nil)

    /// Named databases the trace uses.
    static let maxDatabases: UInt32 = 8

    /// The environments open in this process, by file identity.
    private static let registry = Locked<[FileIdentity: WeakEnvironment]>([:])

    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct WeakEnvironment {
        weak var environment: LMDBEnvironment?
    }

    /// The environment of `path` for `mode`: the one already open in this
    /// process when it can serve `mode`, else a new one.
    static func open(path: String, mode: LMDBOpenMode, initialMapSize: Int = 64 << 20) throws -> LMDBEnvironment {
        if case .readWriteExclusive = mode {
            return try LMDBEnvironment(path: path, mode: mode, initialMapSize: initialMapSize)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return try LMDBEnvironment(path: path, mode: mode, initialMapSize: initialMapSize)  // reports the error precisely
        }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return try registry.withLock { open in
            // A reader without the lock file serves only readers without it: a reader that
            // asks for the lock (a writer has appeared) gets an environment that has it.
            if let existing = open[identity]?.environment, existing.mode.sharing >= mode.sharing {
                return existing
            }
            let environment = try LMDBEnvironment(path: path, mode: mode, initialMapSize: initialMapSize)
            if (open[identity]?.environment?.mode.sharing ?? -1) < mode.sharing {
                open[identity] = WeakEnvironment(environment: environment)
            }
            return environment
        }
    }

    private init(path: String, mode: LMDBOpenMode, initialMapSize: Int) throws {
        try LMDBFileCheck.check(path, reading: mode.isReadOnly)
        var env: OpaquePointer?
        try LMDBCall.check("mdb_env_create", mdb_env_create(&env), path: path)
        // `!`: mdb_env_create succeeded, so it set the handle.
        let handle = env!
        self.handle = handle
        self.path = path
        self.mode = mode
        self.currentMapSize = initialMapSize
        remapLock = .allocate(capacity: 1)
        pthread_rwlock_init(remapLock, nil)
        // From here every stored property is set, so a throw still runs
        // deinit, which closes the handle: it must not be closed here too.
        // liblmdb's assertions on broken pages leave a guarded call as an error instead of aborting.
        try LMDBCall.check("mdb_env_set_assert", lmdb_guard_watch(handle), path: path)
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
        if mode == .readWriteShared || mode == .readOnlyShared { try Self.reserveLockFile(of: path) }
        try LMDBCall.check("mdb_env_open", mdb_env_open(handle, path, flags, 0o644), path: path)
        if mode == .readWriteShared {
            // The mark of a writer: a shared `flock` on the trace file, held until the environment
            // closes (so also when the process dies). Commands that would replace the file probe it
            // (``hasWriter(_:)``). liblmdb locks only the lock file, with `fcntl`, which `flock` never meets.
            var fd: mdb_filehandle_t = -1
            if mdb_env_get_fd(handle, &fd) == MDB_SUCCESS, fd >= 0 { _ = flock(fd, LOCK_SH) }
        }
        var info = MDB_envinfo()
        if mdb_env_info(handle, &info) == MDB_SUCCESS { currentMapSize = info.me_mapsize }
        clearStaleReaders()
    }

    /// Whether a writer (a recorder, `replay record`, the collector) has the
    /// trace at `path` open now, in any process: it holds a shared `flock` on
    /// the file for as long as it has it open, so an exclusive one cannot be taken.
    static func hasWriter(_ path: String) -> Bool {
        #if canImport(Glibc)
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        #else
        let fd = Darwin.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Allocates the disk space of LMDB's lock file (`PATH-lock`) before liblmdb
    /// maps it. liblmdb sizes the file with `ftruncate` and writes it through
    /// `mmap`: on a full disk (a tmpfs above all) the first store into a page
    /// that has no space behind it kills the process with SIGBUS. Allocated
    /// here first, a full disk is an ordinary error instead. The size is not
    /// changed (`FALLOC_FL_KEEP_SIZE`): liblmdb still decides it, and every
    /// process agrees on the number of reader slots. Other failures (a folder
    /// that is read-only, a file system without `fallocate`) are left to liblmdb.
    static func reserveLockFile(of path: String) throws {
        #if os(Linux)
        let lockPath = path + "-lock"
        var created = true
        var fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == EEXIST {
            created = false
            fd = Glibc.open(lockPath, O_RDWR | O_CLOEXEC)
        }
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard let fallocate = linuxFallocate else { return }
        let keepSize: Int32 = 0x01  // FALLOC_FL_KEEP_SIZE (linux/falloc.h)
        // 16 KiB: liblmdb's lock file with its default 126 reader slots is about 8 KiB.
        if fallocate(fd, keepSize, 0, 16 << 10) != 0 {
            let code = errno
            guard code == ENOSPC || code == EDQUOT || code == EFBIG else { return }
            if created { unlink(lockPath) }
            var error = LMDBCall.error("fallocate", code, path: path)
            error.message = "cannot make the lock file \(lockPath): " + error.message
            throw error
        }
        #endif
    }

    #if os(Linux)
    /// glibc's `fallocate(2)`, which the Glibc module does not import (it is declared only
    /// under `_GNU_SOURCE`): looked up once in the process's own symbols.
    private static let linuxFallocate: (@convention(c) (Int32, Int32, Int, Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, Int, Int) -> Int32).self)
    }()
    #endif

    /// Frees the reader slots of processes that died inside a read
    /// transaction, so that they do not keep the writer from reusing pages
    /// (the file would grow without bound under a long-running recorder).
    func clearStaleReaders() {
        guard case .readWriteShared = mode else { return }
        var dead: Int32 = 0
        _ = mdb_reader_check(handle, &dead)
    }

    deinit {
        mdb_env_close(handle)
        pthread_rwlock_destroy(remapLock)
        remapLock.deallocate()
    }

    /// The current map size in bytes.
    var mapSize: Int {
        pthread_rwlock_rdlock(remapLock)
        defer { pthread_rwlock_unlock(remapLock) }
        return currentMapSize
    }

    /// The last page in use and the id of the last committed transaction
    /// (`mdb_env_info`), as the meta page records them (so possibly damaged).
    var lastCommit: (page: UInt64, transaction: UInt64) {
        var info = MDB_envinfo()
        guard mdb_env_info(handle, &info) == MDB_SUCCESS else { return (0, 0) }
        return (UInt64(truncatingIfNeeded: info.me_last_pgno), UInt64(truncatingIfNeeded: info.me_last_txnid))
    }

    /// Flushes written data to disk (`mdb_env_sync` with force).
    func sync() throws {
        try LMDBCall.check("mdb_env_sync", mdb_env_sync(handle, 1), path: path)
    }

    /// Runs `body` in a read-only transaction. The transaction and every byte
    /// it hands out are valid only inside `body`. On success the transaction
    /// is committed rather than aborted, because LMDB keeps the database
    /// handles opened in a transaction only when it commits.
    @usableFromInline func read<R>(_ body: (borrowing LMDBTransaction) throws -> R) throws -> R {
        pthread_rwlock_rdlock(remapLock)
        defer { pthread_rwlock_unlock(remapLock) }
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
        precondition(!mode.isReadOnly, "write transaction on a read-only trace")  // programmer error: callers open writers read-write
        while true {
            pthread_rwlock_rdlock(remapLock)
            let txn: LMDBTransaction
            do {
                txn = try begin(readOnly: false)
            } catch {
                pthread_rwlock_unlock(remapLock)
                throw error
            }
            do {
                let result = try body(txn)
                try LMDBCall.check("mdb_txn_commit", mdb_txn_commit(txn.handle), path: path)
                pthread_rwlock_unlock(remapLock)
                return result
            } catch let error as LifecycleLogError where error.lmdbStatus == MDB_MAP_FULL {
                // A failed commit has already freed the transaction; abort only otherwise.
                if error.function != "mdb_txn_commit" { mdb_txn_abort(txn.handle) }
                pthread_rwlock_unlock(remapLock)
                try grow()
            } catch {
                if (error as? LifecycleLogError)?.function != "mdb_txn_commit" { mdb_txn_abort(txn.handle) }
                pthread_rwlock_unlock(remapLock)
                throw error
            }
        }
    }

    private func grow() throws {
        pthread_rwlock_wrlock(remapLock)
        defer { pthread_rwlock_unlock(remapLock) }
        let newSize = currentMapSize < (1 << 30) ? currentMapSize * 2 : currentMapSize + (1 << 30)
        try LMDBCall.check("mdb_env_set_mapsize", mdb_env_set_mapsize(handle, newSize), path: path)
        currentMapSize = newSize
    }

    /// Begins a transaction; the caller holds `remapLock` shared.
    private func begin(readOnly: Bool) throws -> LMDBTransaction {
        var txn: OpaquePointer?
        var status = lmdb_guard_txn_begin(handle, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        if status == MDB_MAP_RESIZED {
            // Another process grew the map: adopt its size (a remap, so exclusively) and try once more.
            pthread_rwlock_unlock(remapLock)
            pthread_rwlock_wrlock(remapLock)
            let adopted = mdb_env_set_mapsize(handle, 0)
            var info = MDB_envinfo()
            if adopted == MDB_SUCCESS, mdb_env_info(handle, &info) == MDB_SUCCESS { currentMapSize = info.me_mapsize }
            pthread_rwlock_unlock(remapLock)
            pthread_rwlock_rdlock(remapLock)
            try LMDBCall.check("mdb_env_set_mapsize", adopted, path: path)
            status = lmdb_guard_txn_begin(handle, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        }
        try LMDBCall.check("mdb_txn_begin", status, path: path)
        // `!`: mdb_txn_begin succeeded, so it set the handle.
        return LMDBTransaction(handle: txn!, path: path, unregistered: readOnly && mode == .readOnly)
    }
}
