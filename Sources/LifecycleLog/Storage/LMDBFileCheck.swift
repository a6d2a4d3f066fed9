#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks an existing LMDB file's meta pages before liblmdb maps it.
///
/// liblmdb maps the whole map size and trusts the meta page's last page
/// number. A truncated file therefore makes it touch pages past the end of the
/// file, which the kernel answers with SIGBUS, killing the process. Reading the two meta
/// pages here turns that into a typed error. The layout read (LMDB 0.9's
/// `MDB_meta` after a 16-byte page header) is that of every 64-bit liblmdb
/// 0.9.x build.
enum LMDBFileCheck {
    static let magic: UInt32 = 0xBEEF_C0DE

    /// Throws `notATrace` or `corruptTrace` when the file at `path` cannot be
    /// a whole LMDB environment. For `reading`, a missing file, a folder, an
    /// empty file or one shorter than LMDB's two meta pages is an error too;
    /// a writer takes a missing or empty file as a new trace.
    static func check(_ path: String, reading: Bool) throws {
        if reading { try checkReadable(path) }
        let fd = open(path, O_RDONLY)
        if fd < 0 { return }  // missing or unreadable: liblmdb reports that precisely
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let size = Int64(info.st_size)
        if size == 0 { return }  // a new, empty file: liblmdb initialises it when writing
        var first = [UInt8](repeating: 0, count: 4096)
        guard pread(fd, &first, first.count, 0) == first.count else {
            throw LifecycleLogError(.notATrace, "the file is \(size) bytes, too small to be an LMDB trace; it may be truncated", path: path)
        }
        guard LittleEndian.u32(first, 16) == magic else {
            throw LifecycleLogError(.notATrace, "not an LMDB file (no LMDB meta page); a trace file is written by `replay import` or the recorder", path: path)
        }
        guard let recorded = pageSize(ofMeta: first) else {
            throw LifecycleLogError(.corruptTrace, "the LMDB meta page is damaged (page size \(LittleEndian.u32(first, 16 + 24))); the trace cannot be read", path: path)
        }
        let pageSize = Int64(recorded)
        var second = [UInt8](repeating: 0, count: 160)
        let haveSecond = pread(fd, &second, second.count, off_t(pageSize)) == second.count && LittleEndian.u32(second, 16) == magic
        // The newer of the two meta pages is the one liblmdb uses.
        let meta = haveSecond && LittleEndian.u64(second, 16 + 128) > LittleEndian.u64(first, 16 + 128) ? second : first
        let lastPage = LittleEndian.u64(meta, 16 + 120)
        guard lastPage < UInt64(Int64.max) / UInt64(pageSize) else {
            throw LifecycleLogError(.corruptTrace, "the LMDB meta page is damaged; the trace cannot be read", path: path)
        }
        if !reading {
            // A writer also needs liblmdb's own two databases as liblmdb makes them: the
            // free-page list keyed by integers (its flags word also keeps the environment's
            // MDB_FIXEDMAP and MDB_NOSUBDIR), neither with duplicates. A damaged meta page
            // claiming otherwise makes liblmdb assert inside an unguarded write.
            let freeFlags = LittleEndian.u16(meta, 16 + 24 + 4), mainFlags = LittleEndian.u16(meta, 16 + 72 + 4)
            let duplicates: UInt16 = 0x04 | 0x10 | 0x20 | 0x40  // MDB_DUPSORT, DUPFIXED, INTEGERDUP, REVERSEDUP
            guard freeFlags & ~UInt16(0x4000 | 0x01) == 0x08, mainFlags & duplicates == 0 else {
                throw LifecycleLogError(.corruptTrace,
                    "the LMDB meta page is damaged (database flags \(freeFlags), \(mainFlags)), so appending to the trace could crash; record into a new file, and recover this one with `replay export --salvage`",
                    path: path)
            }
        }
        let needed = (Int64(lastPage) + 1) * pageSize
        if needed > size {
            throw LifecycleLogError(.corruptTrace,
                "the file is truncated: its last page ends at byte \(needed) but the file has \(size) bytes; recover the events it still holds with `replay export --salvage`, or re-import it from its JSON Lines source",
                path: path)
        }
    }

    /// The page size that the meta page starting `page` records, or `nil` when
    /// it is not an intact LMDB meta page (no magic, or not a power of two
    /// from 512 to 65536). `page` holds at least the first 44 bytes.
    static func pageSize(ofMeta page: [UInt8]) -> Int? {
        guard page.count >= 44, LittleEndian.u32(page, 16) == magic else { return nil }
        let size = Int(LittleEndian.u32(page, 16 + 24))  // mm_dbs[FREE_DBI].md_pad holds the page size
        return size >= 512 && size <= 65536 && size & (size - 1) == 0 ? size : nil
    }

    /// What a file that is not a regular file is, for a message.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// What a reader rejects before looking inside the file.
    private static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw LMDBCall.error("stat", errno, path: path) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw LifecycleLogError(.io, "is a folder, not a trace file; name a .lmdb file (or pass the folder to `replay` to replay every trace in it)", path: path)
        }
        // Never opened (a FIFO would block the open): a trace is a regular file.
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw LifecycleLogError(.notATrace,
                "is \(kind(of: info.st_mode)), not a regular file, so it cannot be a trace; name a .lmdb file written by `replay import` or the recorder",
                path: path)
        }
        if info.st_size < 2 * 4096 {
            throw LifecycleLogError(.notATrace,
                info.st_size == 0 ? "the file is empty, not a trace; a trace file is written by `replay import` or the recorder"
                    : "the file is \(info.st_size) bytes, too small to be an LMDB trace; it may be truncated",
                path: path)
        }
    }
}
