#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LifecycleLog

/// Buffered writes to a file descriptor, or to a file that appears only when
/// complete (written to a temporary name, renamed on ``commit()``).
final class Output: Sendable {
    private let fd: Int32
    private let buffer = Locked<[UInt8]>([])
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

    func write(_ text: String) {
        let full = buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            return buffer.count >= 1 << 16 || fd == 2
        }
        if full { try? flush() }
    }

    func flush() throws {
        try buffer.withLock { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = buffer.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }  // `!`: non-empty buffer
                if n < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    buffer.removeAll()
                    throw LifecycleLogError(.io, "cannot write the output: \(reason)", path: finalPath)
                }
                offset += n
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Flushes, and for a file output closes it and moves it into place.
    func commit() throws {
        try flush()
        guard let finalPath, let temporaryPath else { return }
        close(fd)
        defer { TemporaryFiles.unregister(temporaryPath) }
        if rename(temporaryPath, finalPath) != 0 {
            unlink(temporaryPath)
            throw LifecycleLogError(.io, "cannot move the output into place: \(String(cString: strerror(errno)))", path: finalPath)
        }
    }

    /// For a file output: closes and removes the unfinished file.
    func discard() {
        guard let temporaryPath else { return }
        close(fd)
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }
}

extension Output {
    /// Appends `markdown` to the file `$GITHUB_STEP_SUMMARY` names, when it is
    /// set (in a GitHub Actions step). A summary that cannot be written is a
    /// warning on standard error, not a failure: the annotations are out already.
    static func appendStepSummary(_ markdown: String) {
        guard let name = getenv("GITHUB_STEP_SUMMARY"), name.pointee != 0 else { return }
        let path = String(cString: name)
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var failure: String?
        if fd < 0 {
            failure = String(cString: strerror(errno))
        } else {
            let bytes = Array(markdown.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }  // `!`: non-empty
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    break
                }
                offset += n
            }
            close(fd)
        }
        if let failure {
            standardError.write("replay: warning: cannot append the job summary to $GITHUB_STEP_SUMMARY (\(VisibleText.escape(path))): \(failure)\n")
        }
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
