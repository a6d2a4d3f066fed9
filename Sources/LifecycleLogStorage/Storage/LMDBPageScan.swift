internal import LifecycleLogPlatform

/// Reads an LMDB file page by page, without liblmdb and without mapping it,
/// to find the leaf entries that a damaged B-tree no longer leads to.
///
/// `replay export --salvage` uses it when liblmdb's walk stops at a damaged
/// page, and for files liblmdb cannot open at all (truncated, or with
/// damaged metadata). Everything is read with `pread` into arrays and every
/// offset is checked before it is used, so a damaged page is skipped, never
/// followed: this is plain, safe Swift, with no fault to guard against.
///
/// The layout read is LMDB 0.9's on a 64-bit build (FORMAT.md, "Pages"): a
/// 16-byte page header (page number, padding, flags, `lower`, `upper`), then
/// `lower - 16` bytes of 2-byte node offsets; a leaf node is its data size
/// (two 16-bit halves), flags and key size, then the key and the data, or
/// the number of the first overflow page when the data is big (`F_BIGDATA`).
/// A page found this way may be a stale copy that a later transaction
/// replaced; in an append-only trace such a copy holds the same records.
struct LMDBPageScan: ~Copyable {
    static let pageHeader = 16
    static let leafFlag: UInt16 = 0x02
    static let overflowFlag: UInt16 = 0x04
    static let bigDataFlag: UInt16 = 0x01
    static let namedDatabaseFlag: UInt16 = 0x02

    let path: String
    let pageSize: Int
    let pageCount: Int
    private let fd: Int32

    /// Opens the file for reading. The page size comes from whichever meta
    /// page is intact (4096 when neither is).
    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LMDBCall.error("open", errno, path: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw LMDBCall.error("fstat", errno, path: path)
        }
        var size = 4096
        var header = [UInt8](repeating: 0, count: 64)
        for page in [0, 4096] where pread(fd, &header, header.count, off_t(page)) == header.count {
            if let recorded = LMDBFileCheck.pageSize(ofMeta: header) {
                size = recorded
                break
            }
        }
        self.fd = fd
        self.path = path
        self.pageSize = size
        self.pageCount = Int(info.st_size) / size
    }

    deinit { close(fd) }

    /// One leaf entry: its position among the page's nodes, its key, and its
    /// data (read from overflow pages when big).
    struct Entry {
        var index: Int
        var key: [UInt8]
        var value: [UInt8]
    }

    /// The entries of page `number` when it is a plain leaf page, in stored
    /// order; `nil` for any other page. A node that does not lie inside the
    /// page, or whose big data cannot be read whole, is left out (its
    /// neighbours are kept: one damaged node does not cost the page).
    func leafEntries(ofPage number: Int) -> [Entry]? {
        guard let page = read(page: number) else { return nil }
        let flags = LittleEndian.u16(page, 10)
        let lower = Int(LittleEndian.u16(page, 12))
        let upper = Int(LittleEndian.u16(page, 14))
        guard flags & ~UInt16(0x10) == Self.leafFlag,  // a leaf (P_DIRTY may be left set), nothing else
              lower >= Self.pageHeader, lower <= upper, upper <= pageSize else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity((lower - Self.pageHeader) / 2)
        for i in 0..<(lower - Self.pageHeader) / 2 {
            let node = Int(LittleEndian.u16(page, Self.pageHeader + 2 * i))
            guard node >= upper, node + 8 <= pageSize else { continue }
            let dataSize = Int(LittleEndian.u16(page, node)) | Int(LittleEndian.u16(page, node + 2)) << 16
            let nodeFlags = LittleEndian.u16(page, node + 4)
            let keySize = Int(LittleEndian.u16(page, node + 6))
            let keyEnd = node + 8 + keySize
            guard keyEnd <= pageSize else { continue }
            let key = Array(page[(node + 8)..<keyEnd])
            if nodeFlags == 0 {
                guard keyEnd + dataSize <= pageSize else { continue }
                entries.append(Entry(index: i, key: key, value: Array(page[keyEnd..<(keyEnd + dataSize)])))
            } else if nodeFlags == Self.bigDataFlag {
                guard keyEnd + 8 <= pageSize else { continue }
                if let value = overflow(at: LittleEndian.u64(page, keyEnd), size: dataSize) {
                    entries.append(Entry(index: i, key: key, value: value))
                }
            } else if nodeFlags & Self.namedDatabaseFlag != 0 {
                return nil  // a page of the database of databases: no records here
            }
        }
        return entries
    }

    /// `size` bytes of big data starting on overflow page `number`.
    private func overflow(at number: UInt64, size: Int) -> [UInt8]? {
        guard number >= 2, number < UInt64(pageCount) else { return nil }
        let offset = Int(number) * pageSize
        guard offset + Self.pageHeader + size <= pageCount * pageSize else { return nil }
        var header = [UInt8](repeating: 0, count: Self.pageHeader)
        guard pread(fd, &header, header.count, off_t(offset)) == header.count,
              LittleEndian.u16(header, 10) & Self.overflowFlag != 0 else { return nil }
        var value = [UInt8](repeating: 0, count: size)
        guard size == 0 || pread(fd, &value, size, off_t(offset + Self.pageHeader)) == size else { return nil }
        return value
    }

    private func read(page number: Int) -> [UInt8]? {
        guard number >= 2, number < pageCount else { return nil }  // pages 0 and 1 are the meta pages
        var page = [UInt8](repeating: 0, count: pageSize)
        guard pread(fd, &page, pageSize, off_t(number * pageSize)) == pageSize else { return nil }
        return page
    }

}
