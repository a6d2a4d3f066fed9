/// Little-endian integers in liblmdb's on-disk structures (meta pages, page
/// headers, nodes), read from bytes copied out of the file. The caller checks
/// that `at` and the integer's width lie inside `b`.
enum LittleEndian {
    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }
    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32 }
}
