internal import LifecycleLogPlatform

/// Reads a file (or standard input) line by line through one buffer, so that
/// memory does not grow with the file's length, only with its longest line,
/// which may hold at most ``maxLineBytes`` bytes: a longer line (a file with
/// no newline at all, `/dev/zero` under a `.jsonl` name) is an error naming
/// it, raised once the buffer holds that much, so memory stays bounded.
package struct LineReader: ~Copyable {
    /// The longest line accepted, without its `\n` (`\r` counts): 16 MiB,
    /// sixteen times the collector's cap for a line it receives
    /// (spec/trace-format.md, "Input limits").
    package static let maxLineBytes = 16 << 20

    private let fd: Int32
    private let ownsDescriptor: Bool
    // `unsafe`: one owned allocation; [start, end) holds unread bytes.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var eof = false
    let path: String
    private(set) var lineNumber = 0

    /// Opens `path` for reading; `-` means standard input.
    package init(path: String, bufferSize: Int = 1 << 20) throws {
        self.path = path
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY)
            if opened < 0 { throw SystemCallError.error("open", errno, path: path) }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw LifecycleLogError(.io, "is a folder, not a JSON Lines file", path: path)
            }
            fd = opened
            ownsDescriptor = true
        }
        storage = .allocate(capacity: max(bufferSize, 16))
    }

    deinit {
        storage.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Calls `body` with each line (without its `\n` or `\r\n`), in order,
    /// until the end of the input or until `body` returns `false`. The buffer
    /// is valid only during the call.
    package mutating func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        try forEachLine(beforeReading: {}, body)
    }

    /// Like ``forEachLine(_:)``, calling `beforeReading` whenever every
    /// buffered line has been handed out and the reader is about to wait for
    /// more input (the moment to commit what arrived so far).
    ///
    /// A final line that does not end with `\n` (a writer killed mid-line
    /// leaves one) goes to `unterminated` first; it goes to `body` too unless
    /// `unterminated` returns `true` (handled).
    package mutating func forEachLine(beforeReading: () throws -> Void,
                              unterminated: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool = { _, _ in false },
                              _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        var searchFrom = start
        while true {
            // `!`: storage is allocated with a non-zero capacity.
            let base = storage.baseAddress!
            if searchFrom < end, let hit = memchr(base + searchFrom, 0x0A, end - searchFrom) {
                let newline = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if newline - start > Self.maxLineBytes { throw lineTooLong() }
                lineNumber += 1
                let keepGoing = try body(lineNumber, line(from: start, to: newline))
                start = newline + 1
                searchFrom = start
                if !keepGoing { return }
                continue
            }
            searchFrom = end
            if end - start > Self.maxLineBytes { throw lineTooLong() }
            if eof {
                if start < end {
                    lineNumber += 1
                    if try !unterminated(lineNumber, line(from: start, to: end)) {
                        _ = try body(lineNumber, line(from: start, to: end))
                    }
                    start = end
                }
                return
            }
            let shift = start
            try beforeReading()
            try fill()
            searchFrom -= shift
        }
    }

    /// The error for the line after ``lineNumber``, longer than ``maxLineBytes``.
    private func lineTooLong() -> LifecycleLogError {
        LifecycleLogError(.invalidInput,
            "the line is longer than 16 MiB (\(Self.maxLineBytes) bytes); is this a JSON Lines trace? Each event must be one line of at most that length",
            path: path == "-" ? "stdin" : path, line: lineNumber + 1)
    }

    private func line(from: Int, to: Int) -> UnsafeBufferPointer<UInt8> {
        var begin = from
        var stop = to
        if stop > begin, storage[stop - 1] == 0x0D { stop -= 1 }
        // A UTF-8 byte order mark at the start of the file is not part of the first line.
        if lineNumber == 1, stop - begin >= 3, storage[begin] == 0xEF, storage[begin + 1] == 0xBB, storage[begin + 2] == 0xBF { begin += 3 }
        return UnsafeBufferPointer(rebasing: storage[begin..<stop])
    }

    /// Moves the unread bytes to the front, grows the buffer when one line fills it, and reads more.
    private mutating func fill() throws {
        if start > 0 {
            // `!`: storage is allocated.
            memmove(storage.baseAddress!, storage.baseAddress! + start, end - start)
            end -= start
            start = 0
        }
        if end == storage.count {
            // Room for the longest line, its `\n`, and one byte that shows a line is too long.
            let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(storage.count * 2, Self.maxLineBytes + 2))
            _ = bigger.initialize(fromContentsOf: storage)
            storage.deallocate()
            storage = bigger
        }
        while true {
            // `!`: storage is allocated.
            let got = read(fd, storage.baseAddress! + end, storage.count - end)
            if got < 0 {
                if errno == EINTR { continue }
                throw SystemCallError.error("read", errno, path: path)
            }
            if got == 0 { eof = true }
            end += got
            return
        }
    }
}
