internal import LifecycleLogPlatform
import LifecycleLog

/// Buffered writes to a file descriptor, or to a file that appears only when
/// complete (written to a temporary name, synced, renamed on ``commit()``).
///
/// A failed write (a full disk, a file-size limit) is remembered: later
/// writes are dropped, and ``flush()`` and ``commit()`` throw it, so that a
/// command never reports success over a short file. ``commit()`` of a file
/// output that failed removes the temporary file.
final class Output: Sendable {
    private let fd: Int32
    private let buffer = Locked<[UInt8]>([])
    /// The first write error, thrown by every later ``flush()``.
    private let failure = Locked<LifecycleLogError?>(nil)
    private let finalPath: String?
    private let temporaryPath: String?

    private init(fd: Int32, finalPath: String?, temporaryPath: String?) {
        self.fd = fd
        self.finalPath = finalPath
        self.temporaryPath = temporaryPath
    }

    static let standardOutput = Output(fd: 1, finalPath: nil, temporaryPath: nil)
    static let standardError = Output(fd: 2, finalPath: nil, temporaryPath: nil)

    /// Standard output for `nil` or `-`, else a new file written atomically.
    static func to(path: String?) throws -> Output {
        guard let path, path != "-" else { return standardOutput }
        let temporary = path + ".tmp-\(getpid())"
        TemporaryFiles.register(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 {
            TemporaryFiles.unregister(temporary)
            throw LifecycleLogError(.io, "cannot create the output file: \(String(cString: strerror(errno))); check that the folder exists and is writable", path: path)
        }
        return Output(fd: fd, finalPath: path, temporaryPath: temporary)
    }

    /// Buffers `text`, writing the buffer out when it is full. After a failed
    /// write nothing more is buffered (memory stays bounded); the error comes
    /// out of the next ``flush()`` or ``commit()``.
    func write(_ text: String) {
        write(bytes: text.utf8)
    }

    /// Buffers UTF-8 `bytes` as ``write(_:)`` buffers text: for text that is already bytes (a
    /// ``SpillBuffer``'s), with no decoding into a `String` and back.
    func write(bytes: some Collection<UInt8>) {
        let full = buffer.withLock { buffer in
            buffer.append(contentsOf: bytes)
            return buffer.count >= 1 << 16 || fd == 2
        }
        if full {
            do {
                try flush()
            } catch {
                // Standard error has no one to report to; the others keep the error for flush() and commit().
            }
        }
    }

    /// Writes out what is buffered.
    ///
    /// - Throws: `LifecycleLogError` (`io`) when this or any earlier write
    ///   failed (standard error's failures are ignored: there is nowhere to report them).
    func flush() throws {
        if let failure = failure.withLock({ $0 }) {
            buffer.withLock { $0 = [] }
            throw failure
        }
        try buffer.withLock { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = buffer.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }  // `!`: non-empty buffer
                if n < 0 {
                    if errno == EINTR { continue }
                    let error = Self.writeError(errno, path: finalPath)
                    buffer = []
                    if fd != 2 { failure.withLock { $0 = $0 ?? error } }
                    throw error
                }
                offset += n
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// The error for a failed `write(2)`, saying what to do.
    private static func writeError(_ code: Int32, path: String?) -> LifecycleLogError {
        let reason = String(cString: strerror(code))
        let advice = code == ENOSPC || code == EDQUOT || code == EFBIG
            ? "; free some space (or raise the file-size limit) and run the command again"
            : ""
        let what = path == nil ? "cannot write to standard output" : "cannot write the output"
        return LifecycleLogError(.io, "\(what): \(reason)\(advice)\(path == nil ? "" : "; nothing was written")", path: path)
    }

    /// Flushes, and for a file output syncs it, closes it and moves it into
    /// place. On any failure a file output is removed (an existing file at the
    /// final path is untouched) and the error thrown.
    func commit() throws {
        try finish()
        try place()
    }

    /// Where a file output stands: being written, complete under its temporary name, or gone.
    private enum Stage { case open, finished, gone }
    private let stage = Locked<Stage>(.open)

    /// The first half of ``commit()``: flushes, and for a file output syncs
    /// and closes it, under its temporary name. On failure the file is removed.
    func finish() throws {
        guard temporaryPath != nil else {
            try flush()
            return
        }
        guard stage.withLock({ $0 }) == .open else { return }
        do {
            try flush()
            // Data a delayed-allocation file system cannot place fails here or at close, not later.
            if fsync(fd) != 0, errno != EINVAL {
                throw Self.writeError(errno, path: finalPath)
            }
        } catch {
            discard()
            throw error
        }
        stage.withLock { $0 = .finished }
        if close(fd) != 0 && errno != EINTR {
            let error = Self.writeError(errno, path: finalPath)
            discard()
            throw error
        }
    }

    /// The second half of ``commit()``: renames a finished file output into place.
    func place() throws {
        guard let finalPath, let temporaryPath, stage.withLock({ $0 }) == .finished else { return }
        stage.withLock { $0 = .gone }
        defer { TemporaryFiles.unregister(temporaryPath) }
        if rename(temporaryPath, finalPath) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw LifecycleLogError(.io, "cannot move the output into place: \(reason)", path: finalPath)
        }
    }

    /// For a file output: closes and removes the unfinished file (once; later calls do nothing).
    func discard() {
        guard let temporaryPath else { return }
        let was = stage.withLock { stage in
            defer { stage = .gone }
            return stage
        }
        if was == .gone { return }
        if was == .open { close(fd) }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }
}

extension Output {
    /// Appends `markdown` to the file `$GITHUB_STEP_SUMMARY` names, when it is
    /// set (in a GitHub Actions step), all or nothing: the whole text is built
    /// first and appended at once; when the append fails partway (a full disk,
    /// a file-size limit) the file is truncated back to its length before, so
    /// that the job summary never shows a table cut mid-row.
    ///
    /// - Throws: `LifecycleLogError` (`io`) naming the file when it cannot be
    ///   opened or the text cannot be appended whole: the command then exits 2.
    static func appendStepSummary(_ markdown: String) throws {
        guard let name = getenv("GITHUB_STEP_SUMMARY"), name.pointee != 0 else { return }
        let path = String(cString: name)
        func failure(_ code: Int32, _ rest: String = "") -> LifecycleLogError {
            let advice = code == ENOSPC || code == EDQUOT || code == EFBIG ? "; free some space (or raise the file-size limit) and run the command again" : ""
            return LifecycleLogError(.io, "cannot append the job summary to $GITHUB_STEP_SUMMARY: \(String(cString: strerror(code)))\(advice)\(rest)", path: path)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno) }
        let before = info.st_size
        let bytes = Array(markdown.utf8)
        var offset = 0
        var code: Int32 = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }  // `!`: not empty
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                code = n < 0 ? errno : EIO
                break
            }
            offset += n  // a short write: the next one says why it stopped, or writes the rest
        }
        guard offset < bytes.count else { return }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure(code) }  // a pipe, say: nothing to undo
        if offset > 0, ftruncate(fd, before) != 0 {
            throw failure(code, "; the part written could not be removed (\(String(cString: strerror(errno)))), so the summary ends mid-table")
        }
        throw failure(code, "; the summary was left as it was")
    }
}

/// `write(2)`, named apart from ``Output/write(_:)``.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// Prints `replay import`'s warning for each JSON Lines trace of `paths` whose
/// last line is torn (a writer killed mid-line): every reader drops that line.
func warnAboutTornRecords(_ paths: [String]) {
    for path in paths {
        if let warning = Replayer.tornFinalRecord(in: path) {
            Output.standardError.write("warning: \(VisibleText.escape(warning.description))\n")
        }
    }
}
