#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file (or standard input) line by line in fixed-size chunks, so
/// that memory does not grow with the file's length.
struct LineReader: ~Copyable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    let path: String
    private(set) var lineNumber = 0

    /// Opens `path` for reading; `-` means standard input.
    init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY)
            if opened < 0 { throw LMDBCall.error("open", errno, path: path) }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw LifecycleLogError(.io, "is a folder, not a JSON Lines file", path: path)
            }
            fd = opened
            ownsDescriptor = true
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Calls `body` with each line (without its `\n` or `\r\n`), in order,
    /// until the end of the input or until `body` returns `false`. The buffer
    /// is valid only during the call.
    mutating func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        while true {
            // Find the next newline in what is buffered.
            var searchFrom = start
            while true {
                let newline: Int? = buffer.withUnsafeBufferPointer { buf in
                    guard searchFrom < buf.count, let base = buf.baseAddress else { return nil }
                    guard let hit = memchr(base + searchFrom, 0x0A, buf.count - searchFrom) else { return nil }
                    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if let newline {
                    lineNumber += 1
                    let keepGoing = try emit(from: start, to: newline, body)
                    start = newline + 1
                    if !keepGoing { return }
                    searchFrom = start
                    continue
                }
                break
            }
            if eof {
                if start < buffer.count {
                    lineNumber += 1
                    _ = try emit(from: start, to: buffer.count, body)
                    start = buffer.count
                }
                return
            }
            try fill()
        }
    }

    private func emit(from: Int, to: Int, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Bool) throws -> Bool {
        var end = to
        if end > from, buffer[end - 1] == 0x0D { end -= 1 }
        var begin = from
        // A UTF-8 byte order mark at the start of the file is not part of the first line.
        if lineNumber == 1, end - begin >= 3, buffer[begin] == 0xEF, buffer[begin + 1] == 0xBB, buffer[begin + 2] == 0xBF { begin += 3 }
        return try buffer.withUnsafeBufferPointer { buf in
            try body(lineNumber, UnsafeBufferPointer(rebasing: buf[begin..<end]))
        }
    }

    private mutating func fill() throws {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let chunk = 1 << 20
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var got = 0
        while true {
            got = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + oldCount, chunk)  // `!`: the buffer was just grown, so it has storage.
            }
            if got < 0 && errno == EINTR { continue }
            break
        }
        if got < 0 {
            buffer.removeSubrange(oldCount...)
            throw LMDBCall.error("read", errno, path: path)
        }
        buffer.removeSubrange((oldCount + got)...)
        if got == 0 { eof = true }
    }
}
