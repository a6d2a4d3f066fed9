/// The 4-byte check that ends every stored event and symbol of layout 3 (FORMAT.md, "Checksums"):
/// a changed byte of a record (bit rot, a scribbling process, a bad copy) is found when the record
/// is read, and named by its seq, instead of replaying as a shifted `t` or a renamed window.
///
/// A multiply-xor hash of the record's key (its seq, or the symbol's id) and its bytes, eight at a
/// time. Each step `h = (h ^ w) &* k` is a bijection of `h` for a fixed word and of `w` for a fixed
/// `h`, so two records that differ in any one 8-byte word (any single flipped bit among them)
/// always reach different 64-bit states; the state is folded to 32 bits, which misses any other
/// change with a chance of about one in four billion. A record moved under another key fails too.
/// About 1 ns per word: cheaper than a table-driven CRC in Swift, and needs no C.
@usableFromInline enum RecordChecksum {
    /// The bytes the check adds to a record.
    @usableFromInline static let size = 4

    @usableFromInline static let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD
    @usableFromInline static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    @usableFromInline static let lengthMultiplier: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// The check of `bytes` stored under `key` (a seq, or a symbol id).
    @inlinable @inline(__always)
    static func of(key: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var h = (seed ^ (UInt64(bytes.count) &* lengthMultiplier) ^ key) &* multiplier
        var at = 0
        let whole = bytes.count & ~7
        if let base = bytes.baseAddress {
            while at < whole {
                h = (h ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))) &* multiplier
                at += 8
            }
            if at < bytes.count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while at < bytes.count {
                    tail |= UInt64(base.load(fromByteOffset: at, as: UInt8.self)) << shift
                    shift += 8
                    at += 1
                }
                h = (h ^ tail) &* multiplier
            }
        }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// The record's bytes without its check, when the check matches; `nil` when it does not (or
    /// the record is too short to hold one).
    @inlinable @inline(__always)
    static func body(of record: UnsafeRawBufferPointer, key: UInt64) -> UnsafeRawBufferPointer? {
        guard record.count >= size, let base = record.baseAddress else { return nil }
        let body = UnsafeRawBufferPointer(start: base, count: record.count - size)
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: record.count - size, as: UInt32.self))
        return stored == of(key: key, body) ? body : nil
    }

    /// The check of `bytes` as the 4 little-endian bytes stored after them.
    static func trailer(key: UInt64, _ bytes: UnsafeRawBufferPointer) -> (UInt8, UInt8, UInt8, UInt8) {
        let c = of(key: key, bytes)
        return (UInt8(truncatingIfNeeded: c), UInt8(truncatingIfNeeded: c >> 8), UInt8(truncatingIfNeeded: c >> 16), UInt8(truncatingIfNeeded: c >> 24))
    }

    /// The error for a record whose check fails.
    @usableFromInline static func mismatch(seq: UInt64) -> LifecycleLogError {
        LifecycleLogError(.corruptTrace, "the stored event fails its checksum: its bytes changed after it was written (a damaged disk, file or copy); the file is damaged. `replay export --salvage` recovers the events before it", seq: seq)
    }

    /// The error for a symbol whose check fails.
    static func symbolMismatch(id: Int) -> LifecycleLogError {
        LifecycleLogError(.corruptTrace, "string #\(id) of the symbols database fails its checksum: its stored bytes changed after it was written; the file is damaged. `replay export --salvage` recovers the events that do not use it")
    }
}
