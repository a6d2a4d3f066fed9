/// Appends the primitive encodings of the stored format (see FORMAT.md):
/// bytes, LEB128 varints, length-prefixed UTF-8 and little-endian doubles.
struct ByteWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(64) }

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func string(_ s: String) {
        varint(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    mutating func double(_ d: Double) {
        var bits = d.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }
}

/// Reads what ``ByteWriter`` wrote, checking every bound: damaged bytes give
/// a ``LifecycleLogError`` with code `corruptTrace`, never a crash.
struct ByteReader: ~Copyable {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    func corrupt(_ what: String) -> LifecycleLogError {
        LifecycleLogError(.corruptTrace, "stored event is damaged (\(what) at byte \(offset)); the trace cannot be read past here")
    }

    @inline(__always)
    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
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

    mutating func longVarint() throws -> UInt64 {
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
    @inline(__always)
    mutating func count(limit: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(limit) else { throw corrupt("count \(v) out of range") }
        return Int(v)
    }

    mutating func string() throws -> String {
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

    mutating func double() throws -> Double {
        guard offset + 8 <= bytes.count else { throw corrupt("unexpected end in a number") }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: bits)
    }
}
