internal import LifecycleLogPlatform

/// Checks an existing LMDB file's meta pages before liblmdb maps it.
///
/// liblmdb maps the whole map size and trusts the meta page's last page
/// number. A truncated file therefore makes it touch pages past the end of the
/// file, which the kernel answers with SIGBUS, killing the process. Reading the two meta
/// pages here turns that into a typed error. The layout read (LMDB 0.9's
/// `MDB_meta` after a 16-byte page header) is that of every 64-bit liblmdb
/// 0.9.x build.
package enum LMDBFileCheck {
    package static let magic: UInt32 = 0xBEEF_C0DE

    /// Throws `notATrace` or `corruptTrace` when the file at `path` cannot be
    /// a whole LMDB environment. For `reading`, a missing file, a folder, an
    /// empty file or one shorter than LMDB's two meta pages is an error too;
    /// a writer takes a missing or empty file as a new trace. For both, a file
    /// that is not a regular file (a FIFO, a device, a socket) is `notATrace`,
    /// found without opening it.
    static func check(_ path: String, reading: Bool) throws {
        if reading {
            try checkReadable(path)
        } else {
            // A writer is refused a file that is not a regular file just as a reader is: opening a
            // FIFO would block until something writes to it (`replay record FIFO` hung).
            var info = stat()
            if stat(path, &info) == 0 { try checkRegular(path, info, reading: false) }
        }
        // Non-blocking: should the path become a FIFO after the check above, the open still returns.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        if fd < 0 { return }  // missing or unreadable: liblmdb reports that precisely
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        try checkRegular(path, info, reading: reading)
        guard (info.st_mode & S_IFMT) == S_IFREG else { return }  // a folder: liblmdb reports it
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

    /// What a file that is neither a regular file nor a folder is, for a message ("a FIFO (named
    /// pipe)", "a character device", …), from its `stat`; `nil` for a regular file or a folder.
    ///
    /// The one test of "not a regular file" for readers, writers and `-o` (`OutputFile`): such a
    /// file is judged by `stat` alone, never opened (opening a FIFO blocks until the other end does).
    static func specialKind(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// Throws `notATrace` when `info` (the `stat` of `path`) is not a regular file or a folder: a
    /// trace is a regular file, for reading and for appending.
    private static func checkRegular(_ path: String, _ info: stat, reading: Bool) throws {
        guard let kind = specialKind(info) else { return }
        throw LifecycleLogError(.notATrace,
            "is \(kind), not a regular file, so it cannot be a trace; "
            + (reading ? "name a .lmdb file written by `replay import` or the recorder"
                       : "name a new .lmdb file, or a trace to append to"),
            path: path)
    }

    /// What a reader rejects before looking inside the file.
    private static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw LMDBCall.error("stat", errno, path: path) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw LifecycleLogError(.io, "is a folder, not a trace file; name a .lmdb file (or pass the folder to `replay` to replay every trace in it)", path: path)
        }
        // Never opened (a FIFO would block the open): a trace is a regular file.
        try checkRegular(path, info, reading: true)
        if info.st_size < 2 * 4096 {
            throw LifecycleLogError(.notATrace,
                info.st_size == 0 ? "the file is empty, not a trace; a trace file is written by `replay import` or the recorder"
                    : "the file is \(info.st_size) bytes, too small to be an LMDB trace; it may be truncated",
                path: path)
        }
    }
}
