import CLMDB
import CLMDBGuard

internal import LifecycleLogPlatform

/// The one place where liblmdb status codes become `LifecycleLogError`s.
///
/// Every `mdb_*` call that can fail goes through ``check(_:_:path:)`` so that
/// the error names the function, LMDB's status and message, and a sentence
/// saying what to do.
enum LMDBCall {
    /// Throws unless `status` is `MDB_SUCCESS`.
    @inline(__always)
    static func check(_ function: StaticString, _ status: Int32, path: String? = nil) throws(LifecycleLogError) {
        if status != MDB_SUCCESS { throw error(function, status, path: path) }
    }

    /// Maps an LMDB or errno status to a typed error with advice.
    static func error(_ function: StaticString, _ status: Int32, path: String? = nil) -> LifecycleLogError {
        let lmdbText = String(cString: mdb_strerror(status))
        let code: LifecycleLogError.Code
        let advice: String
        if status == LMDB_GUARD_DAMAGED {
            return LifecycleLogError(
                .corruptTrace,
                "the trace file is damaged: liblmdb was sent outside the file by a broken page; recover what is still readable with `replay export --salvage`",
                path: path, lmdbStatus: status, function: "\(function)")
        }
        if status == LMDB_GUARD_ASSERTION {
            // liblmdb's message names its own source line, which says nothing to a user: keep only the check.
            let check = String(cString: lmdb_guard_last_assertion())
            let what = check.split(separator: ":", maxSplits: 2).last.map { $0.trimmingPrefix(" ") } ?? Substring(check)
            return LifecycleLogError(
                .corruptTrace,
                "the trace file is damaged: liblmdb found a broken page (\(what)); recover what is still readable with `replay export --salvage`",
                path: path, lmdbStatus: status, function: "\(function)")
        }
        // An errno value (ENOENT, ENOSPC, …): the system's message, as every file error gives it.
        if status > 0 {
            return SystemCallError.error(function, status, path: path)
        }
        switch status {
        case MDB_INVALID, MDB_VERSION_MISMATCH:
            code = .notATrace
            advice = "the file is not an LMDB environment this liblmdb can read; check that it is a trace written by `replay import` or the recorder"
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_BAD_TXN:
            code = .corruptTrace
            advice = "the trace file is damaged; re-import it from its JSON Lines source if you have one"
        case MDB_MAP_FULL:
            code = .storage
            advice = "the trace's map is full; this is retried automatically, so seeing it means the map could not grow (check free disk space)"
        default:
            code = status > 0 && status < MDB_KEYEXIST ? .io : .storage
            advice = "see liblmdb's message"
        }
        return LifecycleLogError(
            code, "\(lmdbText): \(advice)", path: path, lmdbStatus: status, function: "\(function)")
    }
}
