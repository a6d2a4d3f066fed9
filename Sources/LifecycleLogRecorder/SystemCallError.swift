internal import LifecycleLogPlatform

/// The error of a failed system call on a file (`open`, `read`, …): the system's message and
/// what to do, with the `errno` value kept as the error's status. `LMDBCall` in `LifecycleLogStorage`
/// gives liblmdb's own statuses and hands `errno` values here, so both say the same.
package enum SystemCallError {
    package static func error(_ function: StaticString, _ status: Int32, path: String? = nil) -> LifecycleLogError {
        if status == ENOENT {
            // Said once, naming the path: not "No such file or directory: no such file; check the
            // path (stat returned 2)" (issue 30: 12). The status stays in the error, unprinted.
            return LifecycleLogError(.io, path == nil ? "no such file or folder; check the path" : "there is no such file or folder; check the path",
                                     path: path, lmdbStatus: status)
        }
        let text = String(cString: strerror(status))
        let advice: String
        switch status {
        case EACCES, EPERM, EROFS:
            advice = "permission denied; check that the file and its folder are readable (and writable when recording)"
        case ENOSPC, EFBIG, EDQUOT:
            advice = "the disk or the file-size limit is full; free space and try again (what was committed before is kept)"
        case EIO:
            advice = "a write or read failed (disk out of space, a file-size limit, or a device error); free space and try again (what was committed before is kept)"
        default: advice = "see the system's message"
        }
        return LifecycleLogError(.io, "\(text): \(advice)", path: path, lmdbStatus: status, function: "\(function)")
    }
}
