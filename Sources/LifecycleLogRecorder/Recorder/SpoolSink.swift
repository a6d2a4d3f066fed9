internal import LifecycleLogPlatform

/// A ``RecordingSink`` that appends to a crash-safe JSON Lines file (a
/// *spool*) in the app's container: the file `replay import` reads.
///
/// Each batch is written as complete lines with as few `write(2)` calls as
/// the system allows (usually one), then synced with `fsync(2)`. A process
/// killed mid-write leaves an exact prefix of what it recorded plus at most
/// one torn final line, which `replay import` reports and drops.
///
/// Opening an existing spool cuts a torn final line off, continues `t` from
/// the last complete line, and appends. When the file cannot be opened,
/// written or synced, or is damaged (its first line is not a trace header of
/// this format version, its last complete line is not an event), the sink
/// moves to a new file beside it (`session.jsonl` → `session-2.jsonl`,
/// `session-3.jsonl`, …) and tells the recorder, which reports it through
/// ``LifecycleRecorder/lastError``. It never throws into the app: only when
/// no file beside it can be written does ``write(_:)`` throw, and the
/// recorder then keeps the events in memory for the next try.
///
/// **A full disk** (`ENOSPC`, a quota, a file-size limit) does not make the
/// file unusable: the sink stays with it and creates no other file. It
/// writes what fits, in chunks of whole lines of at most 64 KiB (halved down
/// to one line when a chunk does not fit), syncs that, and throws
/// ``RecordingSinkPartialWrite`` saying how many events of the batch are in
/// the file; the recorder keeps the rest in memory, in order, and the next
/// commit goes on from there once space is freed. What waits in memory is
/// bounded by the recorder's `maxPendingEvents` (100,000 by default): beyond
/// it the recorder drops the newer events, not the older ones, so that the
/// spool stays an exact prefix of the recording (a spool with a gap would
/// replay into wrong findings). A spool created on a full disk gets its
/// header with its first events.
///
/// ```swift
/// let recorder = LifecycleRecorder(sink: SpoolSink(path: container + "/session.jsonl"))
/// ```
public final class SpoolSink: RecordingSink {
    /// The header line a new spool starts with.
    static let header = "{\"format\":\"lifecycle-trace\",\"version\":\(JSONLinesDecoder.supportedVersion)}\n"

    private struct State {
        var fd: Int32 = -1
        /// The file's length: everything before it is complete lines.
        var length: Int = 0
        var path: String
        /// The next `-N` suffix to try when moving to a new file.
        var nextSuffix = 2
        var warning: LifecycleLogError?
        /// The file is empty: the disk was full when it was created. The header goes with the first events.
        var needsHeader = false
        /// The spool could not be opened for want of permission (data protection before the device's
        /// first unlock): each write tries it again, and the events wait in the recorder meanwhile.
        var waitingForAccess = false
    }

    /// The most bytes written with one `write(2)` call: a batch is written in chunks of
    /// whole lines up to this size, so that on a full disk what fits is kept.
    static let chunkBytes = 64 << 10

    private let state: Locked<State>
    /// The path the sink was opened with; ``currentPath`` is where it writes now.
    public let path: String
    /// The `t` of the last complete event in the spool when the sink opened (0 for a new one).
    public let lastTime: Double

    /// Opens (or creates) the spool at `path` for appending. Never fails: a
    /// spool that cannot be used is replaced by a new file beside it, and the
    /// recorder reports that on its first write.
    ///
    /// The folders on the way to `path` are created when missing (a fresh iOS container has no
    /// `Library/Application Support` until an app makes it).
    ///
    /// - Parameter path: the JSON Lines file, conventionally `*.jsonl`, in a
    ///   folder the app can write (its container's Application Support or Caches).
    public init(path: String) {
        self.path = path
        var s = State(path: path)
        var time: Double = 0
        Self.createFolders(above: path)
        switch Self.open(existing: path) {
        case .success(let opened):
            s.fd = opened.fd
            s.length = opened.length
            s.needsHeader = opened.needsHeader
            time = opened.lastTime
        case .failure(let error) where Self.isAccessDenied(error):
            // Data protection keeps the container's files closed until the first unlock: not damage.
            s.waitingForAccess = true
            s.warning = LifecycleLogError(.io, "the spool cannot be opened yet (\(error.message)): on a locked device, data protection keeps files closed until the first unlock. The events wait in memory and are written when it opens", path: path)
        case .failure(let error):
            s.warning = error
            Self.moveToNewFile(&s, base: path)
        }
        lastTime = time
        state = Locked(s)
    }

    /// Where an app's spool goes: in the app's container (its `HOME`),
    /// `Library/Application Support/LifecycleLog/[APP/]FILE`, or on tvOS
    /// `Library/Caches/LifecycleLog/[APP/]FILE`: a physical Apple TV gives apps no
    /// persistent storage (Documents and Application Support cannot be written),
    /// only caches the system may purge while the app is not running, so copy a
    /// tvOS spool off the device soon (Xcode's Devices window, or stream to a
    /// collector). The folders are created by ``init(path:)``.
    ///
    /// - Parameters:
    ///   - platform: the platform the app runs on.
    ///   - home: the app's container; the `HOME` environment variable by default (on iOS,
    ///     tvOS, watchOS, visionOS and in a sandboxed Mac app, the container).
    ///   - app: a folder for the app, for a Mac app without a sandbox, whose `HOME` is the user's.
    ///   - file: the spool's file name.
    /// - Returns: the spool's path.
    public static func defaultPath(platform: Platform = .current, home: String? = nil, app: String? = nil, file: String = "session.jsonl") -> String {
        let base = home ?? getenv("HOME").map { String(cString: $0) } ?? "."
        let library = platform == .tvOS ? "Library/Caches" : "Library/Application Support"
        var path = base.hasSuffix("/") ? String(base.dropLast()) : base
        path += "/\(library)/LifecycleLog/"
        if let app, !app.isEmpty { path += app + "/" }
        return path + file
    }

    deinit { close() }

    /// The spool file the sink writes now: ``path``, or the file it moved to.
    public var currentPath: String { state.withLock { $0.path } }

    /// The spool's current path.
    public var destination: String { currentPath }

    /// Appends `events` as JSON Lines and syncs the file.
    ///
    /// - Throws: ``RecordingSinkPartialWrite`` when the disk filled after the
    ///   first events of the batch were written (they are synced, in whole
    ///   lines; the rest is not written). ``LifecycleLogError`` (`io`) when none
    ///   of the batch was written: the disk is full, or neither the spool nor a
    ///   new file beside it can be written (a partly written chunk is cut off again).
    public func write(_ events: [LifecycleEvent]) throws {
        try state.withLock { s in
            var startLength = s.length
            var index = 0
            var attempts = 0
            var chunk: [UInt8] = []
            var lineEnds: [Int] = []  // the end of each line in `chunk`
            var fullDisk: LifecycleLogError?
            if s.waitingForAccess, s.fd < 0 {
                try Self.openAfterAccess(&s, base: path)
                startLength = s.length
            }
            while index < events.count {
                if s.fd < 0 {
                    attempts += 1
                    if attempts > 3 {
                        throw LifecycleLogError(.io, "cannot write the spool or a new file beside it: \(s.warning?.message ?? "unknown"); check that the folder exists, is writable and has space", path: path)
                    }
                    Self.moveToNewFile(&s, base: path)
                    if s.fd < 0, let warning = s.warning, Self.isOutOfSpace(warning) { fullDisk = warning; break }
                    startLength = s.length
                    continue
                }
                if s.needsHeader {
                    if let failure = Array(Self.header.utf8).withUnsafeBytes({ Self.append($0, to: &s, sync: false) }) {
                        if Self.isOutOfSpace(failure) { fullDisk = failure; break }
                        Self.abandon(&s, failure)
                        continue
                    }
                    s.needsHeader = false
                }
                // The next chunk: whole lines, at least one, up to chunkBytes.
                chunk.removeAll(keepingCapacity: true)
                lineEnds.removeAll(keepingCapacity: true)
                var next = index
                while next < events.count, chunk.isEmpty || chunk.count + 128 < Self.chunkBytes {
                    chunk.append(contentsOf: events[next].jsonLine.utf8)
                    chunk.append(0x0A)
                    lineEnds.append(chunk.count)
                    next += 1
                    if chunk.count >= Self.chunkBytes { break }
                }
                // On a full disk, half as many lines, down to one.
                var lines = lineEnds.count
                while true {
                    let failure = chunk.withUnsafeBytes { Self.append(UnsafeRawBufferPointer(rebasing: $0[..<lineEnds[lines - 1]]), to: &s, sync: false) }
                    guard let failure else { break }
                    if Self.isOutOfSpace(failure) {
                        if lines > 1 { lines /= 2; continue }
                        fullDisk = failure
                    } else {
                        // The file is unusable: none of the batch counts in it; all of it goes to the next file.
                        _ = ftruncate(s.fd, off_t(startLength))
                        s.length = startLength
                        Self.abandon(&s, failure)
                        index = 0
                    }
                    lines = 0
                    break
                }
                if fullDisk != nil { break }
                index += lines
            }
            if s.fd >= 0, s.length > startLength, fsync(s.fd) != 0 {
                let failure = Self.systemError("fsync", s.path)
                _ = ftruncate(s.fd, off_t(startLength))  // best effort: none of the batch counts
                s.length = startLength
                if Self.isOutOfSpace(failure) { throw failure }
                Self.abandon(&s, failure)
                throw LifecycleLogError(.io, "cannot sync the spool: \(failure.message); the batch is kept in memory for the next try", path: path)
            }
            if let fullDisk {
                let error = LifecycleLogError(.io, "the disk is full (\(fullDisk.message)): \(index) of \(events.count) events written; the rest wait in memory until space is freed", path: s.path,
                                              lmdbStatus: fullDisk.lmdbStatus, function: fullDisk.function)
                if index > 0 { throw RecordingSinkPartialWrite(written: index, error: error) }
                throw error
            }
        }
    }

    /// Whether `error` says the disk (or a quota, or a file-size limit) is full: the file is still good.
    static func isOutOfSpace(_ error: LifecycleLogError) -> Bool {
        guard let code = error.lmdbStatus else { return false }
        return code == ENOSPC || code == EDQUOT || code == EFBIG
    }

    /// Whether `error` is a refused permission (`EPERM`, `EACCES`): what data protection gives before
    /// the first unlock.
    private static func isAccessDenied(_ error: LifecycleLogError) -> Bool {
        error.lmdbStatus == EPERM || error.lmdbStatus == EACCES
    }

    /// Tries the spool again after it was refused for permission. Still refused: throws, and the
    /// recorder keeps the events. Opened: a spool that held events gets a new file beside it for
    /// this run (the recorder's times started from 0, not from the spool's last `t`); an empty or
    /// new one is used.
    private static func openAfterAccess(_ s: inout State, base: String) throws {
        switch open(existing: base) {
        case .failure(let error) where isAccessDenied(error):
            throw LifecycleLogError(.io, "the spool still cannot be opened (\(error.message)); the events wait in memory (data protection before the first unlock?)", path: base)
        case .failure(let error):
            s.waitingForAccess = false
            s.warning = error
            moveToNewFile(&s, base: base)
        case .success(let opened):
            s.waitingForAccess = false
            s.warning = nil
            if opened.lastTime > 0 || opened.length > header.utf8.count {
                _ = systemClose(opened.fd)
                moveToNewFile(&s, base: base)
            } else {
                s.fd = opened.fd
                s.length = opened.length
                s.needsHeader = opened.needsHeader
            }
        }
    }

    /// Closes the file after an error that makes it unusable; the next write moves to a new file.
    private static func abandon(_ s: inout State, _ failure: LifecycleLogError) {
        s.warning = failure
        if s.fd >= 0 { _ = systemClose(s.fd) }
        s.fd = -1
    }

    /// Returns (once) why the sink moved to a new file, if it did since the last call.
    public func takeWarning() -> LifecycleLogError? {
        state.withLock { s in
            defer { s.warning = nil }
            return s.warning
        }
    }

    /// Closes the file.
    public func close() {
        state.withLock { s in
            if s.fd >= 0 { _ = Self.systemClose(s.fd) }
            s.fd = -1
        }
    }

    // MARK: Files

    private struct Opened {
        var fd: Int32
        var length: Int
        var lastTime: Double
        var needsHeader = false
    }

    private static func systemClose(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #else
        Glibc.close(fd)
        #endif
    }

    private static func systemError(_ function: String, _ path: String) -> LifecycleLogError {
        let code = errno
        return LifecycleLogError(.io, "\(function) failed: \(String(cString: strerror(code)))", path: path, lmdbStatus: code, function: function)
    }

    /// Writes all of `bytes` at the end of the file and, with `sync`, syncs it; on
    /// failure cuts the file back to its old length (no torn line left behind)
    /// and returns the error. The file stays open: the caller decides.
    private static func append(_ bytes: UnsafeRawBufferPointer, to s: inout State, sync: Bool) -> LifecycleLogError? {
        var done = 0
        var failure: LifecycleLogError?
        while done < bytes.count {
            // `!`: a non-empty buffer has a base address.
            let wrote = pwrite(s.fd, bytes.baseAddress! + done, bytes.count - done, off_t(s.length + done))
            if wrote < 0 {
                if errno == EINTR { continue }
                failure = systemError("write", s.path)
                break
            }
            done += wrote
        }
        if failure == nil, sync, fsync(s.fd) != 0 { failure = systemError("fsync", s.path) }
        if let failure {
            _ = ftruncate(s.fd, off_t(s.length))  // best effort: no torn line left behind
            return failure
        }
        s.length += bytes.count
        return nil
    }

    /// ``append(_:to:sync:)`` for an array, synced, closing the file on failure.
    private static func append(_ bytes: [UInt8], to s: inout State) -> LifecycleLogError? {
        let failure = bytes.withUnsafeBytes { append($0, to: &s, sync: true) }
        if failure != nil {
            _ = systemClose(s.fd)
            s.fd = -1
        }
        return failure
    }

    /// Opens a new file beside `base` (`name-N.ext`), created exclusively, with a header.
    private static func moveToNewFile(_ s: inout State, base: String) {
        if s.fd >= 0 { _ = systemClose(s.fd) }
        s.fd = -1
        while s.nextSuffix < 1000 {
            let candidate = suffixed(base, s.nextSuffix)
            s.nextSuffix += 1
            let fd = openFile(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC)
            if fd < 0 {
                if errno == EEXIST { continue }
                s.warning = systemError("open", candidate)
                return
            }
            s.fd = fd
            s.path = candidate
            s.length = 0
            s.needsHeader = false
            if let failure = append(Array(header.utf8), to: &s) {
                // Never one empty file after another: a new file that cannot take its header
                // is removed, and the search stops (a full disk would fail them all).
                _ = unlink(candidate)
                s.path = base
                s.nextSuffix -= 1  // the same name next time: retries on a full disk do not use up the names
                s.warning = failure
                return
            }
            let previous = s.warning.map { ": \($0.description)" } ?? ""
            s.warning = LifecycleLogError(.io, "the spool could not be used\(previous); recording continues in \(candidate)", path: base)
            return
        }
    }

    /// Creates every missing folder on the way to the file at `path` (as `mkdir -p` does), each
    /// `rwxr-xr-x`. A folder that cannot be made is left to the open that follows, which fails
    /// and says why.
    package static func createFolders(above path: String) {
        guard let slash = path.lastIndex(of: "/"), slash > path.startIndex else { return }
        let folder = path[..<slash]
        var current = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            if !current.isEmpty && current != "/" { current += "/" }
            current += component
            if component == "." || component == ".." { continue }
            _ = mkdir(current, 0o755)  // EEXIST and the like: the open that follows reports what matters
        }
    }

    private static func openFile(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.open(path, flags, 0o644)
        #else
        Glibc.open(path, flags, 0o644)
        #endif
    }

    /// `a/session.jsonl` → `a/session-2.jsonl`; `a/session` → `a/session-2`.
    package static func suffixed(_ path: String, _ n: Int) -> String {
        let slash = path.lastIndex(of: "/")
        let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart {
            return "\(path[..<dot])-\(n)\(path[dot...])"
        }
        return "\(path)-\(n)"
    }

    /// Opens `path`, creating it with a header, or checking an existing one:
    /// the header's version, a torn tail cut off, `t` of the last complete line.
    private static func open(existing path: String) -> Result<Opened, LifecycleLogError> {
        let fd = openFile(path, O_RDWR | O_CREAT | O_CLOEXEC)
        if fd < 0 { return .failure(systemError("open", path)) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let error = systemError("fstat", path)
            _ = systemClose(fd)
            return .failure(error)
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            _ = systemClose(fd)
            return .failure(LifecycleLogError(.io, "not a regular file", path: path))
        }
        let size = Int(info.st_size)
        if size == 0 {
            var s = State(fd: fd, length: 0, path: path)
            let failure = Array(header.utf8).withUnsafeBytes { append($0, to: &s, sync: true) }
            if let failure {
                // A full disk: the file is fine; the header goes with the first events.
                if isOutOfSpace(failure) { return .success(Opened(fd: fd, length: 0, lastTime: 0, needsHeader: true)) }
                _ = systemClose(fd)
                return .failure(failure)
            }
            return .success(Opened(fd: fd, length: s.length, lastTime: 0))
        }
        switch scan(fd: fd, size: size, path: path) {
        case .failure(let error):
            _ = systemClose(fd)
            return .failure(error)
        case .success(let (complete, time)):
            if complete < size, ftruncate(fd, off_t(complete)) != 0 || fsync(fd) != 0 {
                let error = systemError("ftruncate", path)
                _ = systemClose(fd)
                return .failure(error)
            }
            return .success(Opened(fd: fd, length: complete, lastTime: time, needsHeader: complete == 0))
        }
    }

    private static func readAll(fd: Int32, at offset: Int, count: Int, path: String) -> Result<[UInt8], LifecycleLogError> {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        let failure: LifecycleLogError? = bytes.withUnsafeMutableBytes { buffer in
            while done < count {
                // `!`: count > 0 here.
                let got = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    return systemError("read", path)
                }
                if got == 0 { break }
                done += got
            }
            return nil
        }
        if let failure { return .failure(failure) }
        bytes.removeSubrange(done...)
        return .success(bytes)
    }

    /// Checks the header and finds the end of the last complete line and its `t`.
    private static func scan(fd: Int32, size: Int, path: String) -> Result<(Int, Double), LifecycleLogError> {
        // The header: the first line.
        let headBytes: [UInt8]
        switch readAll(fd: fd, at: 0, count: min(size, 4096), path: path) {
        case .failure(let error): return .failure(error)
        case .success(let bytes): headBytes = bytes
        }
        guard let headerEnd = headBytes.firstIndex(of: 0x0A) else {
            // Not even the header is complete: the file was torn while it was created.
            // Start over: rewrite the header.
            if ftruncate(fd, 0) != 0 { return .failure(systemError("ftruncate", path)) }
            var s = State(fd: fd, length: 0, path: path)
            if let failure = Array(header.utf8).withUnsafeBytes({ append($0, to: &s, sync: true) }) {
                // A full disk: an empty file, whose header goes with the first events.
                return isOutOfSpace(failure) ? .success((0, 0)) : .failure(failure)
            }
            return .success((s.length, 0))
        }
        if Array(headBytes[...headerEnd]) != Array(header.utf8) {
            return .failure(LifecycleLogError(.invalidInput, "the spool's first line is not the header \(header.dropLast()); not continuing it", path: path, line: 1))
        }
        // The last complete line: read backwards from the end in growing chunks.
        var chunk = 4096
        while true {
            let start = max(0, size - chunk)
            let tail: [UInt8]
            switch readAll(fd: fd, at: start, count: size - start, path: path) {
            case .failure(let error): return .failure(error)
            case .success(let bytes): tail = bytes
            }
            guard let lastNewline = tail.lastIndex(of: 0x0A) else {
                if start == 0 { return .success((headerEnd + 1, 0)) }
                chunk *= 4
                continue
            }
            let complete = start + lastNewline + 1
            if complete == headerEnd + 1 { return .success((complete, 0)) }
            guard let lineStart = tail[..<lastNewline].lastIndex(of: 0x0A).map({ $0 + 1 }) ?? (start == 0 ? 0 : nil) else {
                chunk *= 4
                continue
            }
            let line = Array(tail[lineStart..<lastNewline])
            let value: JSONValue? = line.withUnsafeBufferPointer { try? JSONParser.parse($0) }
            guard case .object(let members)? = value,
                  case .number(let text)? = members.first(where: { $0.name == "t" })?.value,
                  let time = Double(text)
            else {
                return .failure(LifecycleLogError(.invalidInput, "the spool's last complete line is not an event with a \"t\"; not continuing it", path: path))
            }
            return .success((complete, time))
        }
    }
}
