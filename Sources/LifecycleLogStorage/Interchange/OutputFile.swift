internal import LifecycleLogPlatform

/// The checks before a command writes its `-o` file: it never replaces the
/// command's own input, its name's extension agrees with what is written, and
/// an existing file of another kind is replaced only when asked (`--force`).
///
/// The rules, shared by every command with `-o`:
/// - **Input.** `-o` naming an input (the same file, compared by device and
///   inode, so `./t.jsonl`, a hard link or a symbolic link count too) is refused.
/// - **Extension.** A command that can write several formats (`generate`)
///   chooses by the extension (``Kind/chosen(by:)``). A command that writes one
///   format refuses a name whose extension belongs to another (`.lmdb`,
///   `.jsonl`/`.ndjson`, `.html`/`.htm`, `.json`), saying which command writes
///   that; other extensions, and none, are accepted.
/// - **Existing files.** A file of the kind written (a trace file for a trace
///   file, …) is replaced, atomically once the output is complete. An empty file
///   is replaced too. A file of another kind, or of a kind `replay` does not
///   write, is refused unless `force` is set: a mistyped `-o` must not destroy
///   a recording. A folder, and anything else that is not a regular file (a
///   FIFO, a device, a socket), is always refused, `force` or not.
package enum OutputFile {
    /// What a command writes.
    package enum Kind: String, Sendable, CaseIterable {
        /// A LifecycleLog trace file (LMDB).
        case traceFile = "a trace file (.lmdb)"
        /// A JSON Lines trace.
        case jsonLines = "JSON Lines (.jsonl)"
        /// An HTML page.
        case html = "an HTML page (.html)"
        /// A JSON document (an expected report).
        case json = "a JSON file (.json)"

        /// The kind a name's extension announces, or `nil` for other extensions and none.
        package static func named(by path: String) -> Kind? {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
            switch name[name.index(after: dot)...].lowercased() {
            case "lmdb": return .traceFile
            case "jsonl", "ndjson": return .jsonLines
            case "html", "htm": return .html
            case "json": return .json
            default: return nil
            }
        }

        /// For a command that writes a trace in either form: JSON Lines for a
        /// `.jsonl`/`.ndjson` name, a trace file otherwise.
        package static func chosen(by path: String) -> Kind {
            named(by: path) == .jsonLines ? .jsonLines : .traceFile
        }
    }

    /// Throws unless `command` may write `kind` to `output` (see `OutputFile`).
    /// `-` (standard output) always may.
    ///
    /// - Parameters:
    ///   - output: the `-o` path.
    ///   - kind: what the command writes there.
    ///   - command: the command, for the message (such as `"replay export"`).
    ///   - inputs: the files the command reads (a missing one or `-` is skipped).
    ///   - force: whether `--force` allows replacing a file of another kind.
    ///   - suggestion: what to use instead when the extension names another
    ///     kind, keyed by that kind, such as `"replay export TRACE -o OUT.jsonl"`.
    ///   - argument: how the messages call `output` (`"-o"`, or `"the trace"` for `replay record`).
    /// - Throws: `LifecycleLogError` `invalidArgument` naming `output`.
    package static func check(_ output: String, writes kind: Kind, command: String, inputs: [String], force: Bool,
                             suggestion: [Kind: String] = [:], argument: String = "-o") throws {
        guard output != "-" else { return }
        try checkNotInput(output, inputs: inputs)
        if let named = Kind.named(by: output), named != kind {
            var message = "\(command) writes \(kind.rawValue), but the name ends in the extension of \(named.rawValue)"
            if let instead = suggestion[named] { message += "; to write \(named.rawValue), use: \(instead)" }
            message += "; or give \(argument) a name that does not end in that extension"
            throw LifecycleLogError(.invalidArgument, message, path: output)
        }
        var target = stat()
        guard stat(output, &target) == 0 else { return }  // a new file
        if (target.st_mode & S_IFMT) == S_IFDIR {
            throw LifecycleLogError(.invalidArgument, "is a folder; \(argument) needs a file name", path: output)
        }
        try checkNotSpecial(output, argument: argument)
        if argument == "-o", (target.st_mode & S_IFMT) == S_IFREG, LMDBEnvironment.hasWriter(output) {
            // Renaming a new file over it would leave the writer appending to a file nobody sees (issue 22).
            throw LifecycleLogError(.invalidArgument,
                "a writer (a recorder, replay record or the collector) has this trace open; "
                + "stop it first, or choose another name (--force does not replace a trace being recorded)",
                path: output)
        }
        guard !force, (target.st_mode & S_IFMT) == S_IFREG, target.st_size > 0 else { return }
        let found = existingKind(output)
        if found != kind {
            throw LifecycleLogError(.invalidArgument,
                "the file exists and holds \(found?.rawValue ?? "something replay does not write"), not \(kind.rawValue); "
                + (argument == "-o" ? "pass --force to replace it, or choose another name" : "choose another name"),
                path: output)
        }
    }

    /// Throws when `output` exists and is neither a regular file nor a folder (a
    /// FIFO, a device, a socket): a command never replaces it, `--force` or not,
    /// nor opens it (opening a FIFO blocks until its other end is opened). A
    /// missing `output`, and `-`, pass.
    ///
    /// - Parameters:
    ///   - output: the path a command is about to write.
    ///   - argument: how the message calls `output` (`"-o"`, `"the trace"`, `"--expect"`).
    /// - Throws: `LifecycleLogError` `invalidArgument` naming `output` and saying what it is.
    package static func checkNotSpecial(_ output: String, argument: String = "-o") throws {
        var target = stat()
        guard output != "-", stat(output, &target) == 0, let special = LMDBFileCheck.specialKind(target) else { return }
        let rule = switch argument {
        case "-o": "; -o replaces only a regular file, with --force too; choose a file name"
        case "the trace": ", so it cannot be a trace; name a new .lmdb file, or a trace to append to"
        default: "; \(argument) replaces only a regular file; choose a file name"
        }
        throw LifecycleLogError(.invalidArgument, "is \(special), not a regular file\(rule)", path: output)
    }

    /// Throws when `output` is one of `inputs`: the same file by device and
    /// inode (so another spelling of the path, a hard link or a symbolic link
    /// is caught too). A missing `output`, and `-`, pass.
    ///
    /// - Throws: `LifecycleLogError` `invalidArgument` naming `output`.
    package static func checkNotInput(_ output: String, inputs: [String]) throws {
        var target = stat()
        guard output != "-", stat(output, &target) == 0 else { return }
        for input in inputs where input != "-" {
            var source = stat()
            if stat(input, &source) == 0, source.st_dev == target.st_dev, source.st_ino == target.st_ino {
                let other = input == output ? "" : " (\(input))"
                throw LifecycleLogError(.invalidArgument,
                    "this is the command's own input\(other): writing it would replace what is being read; write to another file",
                    path: output)
            }
        }
    }

    /// Whether the file at `path` reads as JSON Lines: it is not a trace file
    /// (by LMDB's magic number) and its first character, after a byte-order
    /// mark and white space, starts a JSON object or a `#` comment. A missing
    /// or empty file does not.
    package static func startsLikeJSONLines(_ path: String) -> Bool {
        guard let head = head(of: path), !isTraceFile(head) else { return false }
        let count = head.count
        var i = 0
        if count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < count, head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D { i += 1 }
        return i < count && (head[i] == UInt8(ascii: "{") || head[i] == UInt8(ascii: "#"))
    }

    /// The first 512 bytes of the file at `path` (fewer in a shorter file); `nil` for a file that
    /// cannot be read or is empty.
    private static func head(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &head, head.count)
        guard count > 0 else { return nil }
        head.removeSubrange(count...)
        return head
    }

    /// Whether `head`, a file's first bytes, holds LMDB's magic number where a trace file has it.
    private static func isTraceFile(_ head: [UInt8]) -> Bool {
        guard head.count >= 20 else { return false }
        return UInt32(head[16]) | UInt32(head[17]) << 8 | UInt32(head[18]) << 16 | UInt32(head[19]) << 24 == LMDBFileCheck.magic
    }

    /// What the existing file at `path` holds, judged by its first bytes.
    package static func existingKind(_ path: String) -> Kind? {
        guard let head = head(of: path) else { return nil }
        if isTraceFile(head) { return .traceFile }
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let start = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let lower = start.prefix(64).lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") { return .html }
        if start.hasPrefix("#") || start.hasPrefix("{\"format\":\"lifecycle-trace\"") || start.hasPrefix("{\"event\"") { return .jsonLines }
        if start.hasPrefix("{") || start.hasPrefix("[") { return .json }
        return nil
    }
}
