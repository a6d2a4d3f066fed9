internal import LifecycleLogPlatform
import LifecycleLog

/// Text gathered now and written out later, kept in memory up to a limit and
/// in a temporary file beyond it, so that a report whose findings must wait
/// for its header (JSON) still streams in bounded memory.
final class SpillBuffer {
    private var memory: [UInt8] = []
    private var fd: Int32 = -1
    private let limit: Int

    /// How much stays in memory before the rest goes to a temporary file:
    /// small, so that replay's memory is the reducer's state and not the report's.
    static let defaultLimit = 256 << 10

    init(limit: Int = SpillBuffer.defaultLimit) { self.limit = limit }

    deinit { if fd >= 0 { close(fd) } }

    func append(_ text: String) throws {
        memory.append(contentsOf: text.utf8)
        if memory.count >= limit { try spill() }
    }

    /// Appends what `write` appends to the buffer's bytes (UTF-8): text written in place, as a
    /// finding's line is (`ReplayReport.appendTextLine`), with no `String` made for it.
    func append(_ write: (inout [UInt8]) -> Void) throws {
        write(&memory)
        if memory.count >= limit { try spill() }
    }

    private func spill() throws {
        if fd < 0 {
            var template = Array("\(String(cString: getenv("TMPDIR") ?? strdup("/tmp")))/replay-spill-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // `!`: a non-empty array has storage
            if fd < 0 { throw LifecycleLogError(.io, "cannot create a temporary file for the report: \(String(cString: strerror(errno))); set TMPDIR to a writable folder") }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }  // `!`: as above; the open file outlives its name
        }
        var offset = 0
        while offset < memory.count {
            let n = memory.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }  // `!`: non-empty buffer
            if n < 0 {
                if errno == EINTR { continue }
                throw LifecycleLogError(.io, "cannot write the report's temporary file: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        memory.removeAll(keepingCapacity: true)
    }

    /// Writes everything gathered, in order, to `out`.
    func drain(into out: Output) throws {
        if fd >= 0 {
            try spill()
            lseek(fd, 0, SEEK_SET)
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }  // `!`: non-empty buffer
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw LifecycleLogError(.io, "cannot read the report's temporary file back: \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                // As bytes: a chunk may end inside a character, which decoding it on its own
                // would have replaced with U+FFFD.
                out.write(bytes: chunk[0..<n])
            }
        }
        out.write(bytes: memory)
        memory.removeAll()
    }
}
