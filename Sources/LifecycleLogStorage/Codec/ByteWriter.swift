/// Appends the primitive encodings of the stored format (see FORMAT.md):
/// bytes, LEB128 varints, length-prefixed UTF-8 and little-endian doubles.
///
/// It owns one growable buffer of raw memory (one of the library's few
/// `unsafe` places, audited here): a write is a bounds check and a store,
/// with none of an array's per-append uniqueness checks. It is non-copyable,
/// so the buffer has exactly one owner, freed in `deinit`.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// Forgets what was written, keeping the buffer.
    mutating func reset() { count = 0 }

    /// A copy of what was written.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }

    /// Lends what was written, valid only inside `body`.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if capacity - count < n { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        reserve(1)
        base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        reserve(10)
        var v = value
        while v >= 0x80 {
            base.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            v >>= 7
        }
        base.storeBytes(of: UInt8(v), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends the UTF-8 bytes of `s`, with no length.
    mutating func utf8(_ s: String) {
        var s = s
        s.withUTF8 { raw in
            reserve(raw.count)
            if let source = raw.baseAddress { (base + count).copyMemory(from: source, byteCount: raw.count) }
            count += raw.count
        }
    }

    mutating func string(_ s: String) {
        varint(UInt64(s.utf8.count))
        utf8(s)
    }

    mutating func double(_ d: Double) {
        reserve(8)
        base.storeBytes(of: d.bitPattern.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
    }
}

/// Reads what ``ByteWriter`` wrote, checking every bound: damaged bytes give
/// a `LifecycleLogError` with code `corruptTrace`, never a crash.
///
/// Inlinable, with what it reads: the replay decoder (`EventCodec+Replay.swift`, in LifecycleLog)
/// reads every field through it, and must inline it as it did in one module.
@usableFromInline package struct ByteReader: ~Copyable {
    @usableFromInline package let bytes: UnsafeRawBufferPointer
    @usableFromInline package var offset = 0

    @inlinable package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inlinable @inline(__always)
    package var isAtEnd: Bool { offset >= bytes.count }

    @usableFromInline package func corrupt(_ what: String) -> LifecycleLogError {
        LifecycleLogError(.corruptTrace, "stored event is damaged (\(what) at byte \(offset)); the trace cannot be read past here")
    }

    @inlinable @inline(__always)
    package mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    @inlinable @inline(__always)
    package mutating func varint() throws -> UInt64 {
        // Most varints of a record are one byte (symbol ids, small versions) and
        // the rest are short (times); the full checks are for the rare long ones.
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var i = offset
        let end = Swift.min(bytes.count, offset + 8)
        while i < end {
            let b = bytes[i]
            result |= UInt64(b & 0x7F) << shift
            i += 1
            if b < 0x80 {
                offset = i
                return result
            }
            shift += 7
        }
        return try longVarint()
    }

    @usableFromInline package mutating func longVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw corrupt("unexpected end in a number") }
            let b = bytes[offset]
            offset += 1
            if shift == 63 && b > 1 { throw corrupt("number too large") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw corrupt("number too long") }
        }
    }

    /// A varint that must fit in `Int` and be at most `limit`.
    @inlinable @inline(__always)
    package mutating func count(limit: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(limit) else { throw corrupt("count \(v) out of range") }
        return Int(v)
    }

    package mutating func string() throws -> String {
        // The limit is what remains after the length itself has been read.
        let declared = try varint()
        guard declared <= UInt64(bytes.count - offset) else { throw corrupt("string of \(declared) bytes runs past the end") }
        let length = Int(declared)
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        let text = String(decoding: slice, as: UTF8.self)
        guard text.utf8.elementsEqual(slice) else { throw corrupt("invalid UTF-8") }
        offset += length
        return text
    }

    @usableFromInline package mutating func double() throws -> Double {
        guard offset + 8 <= bytes.count else { throw corrupt("unexpected end in a number") }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: bits)
    }
}
