#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleLog

internal import LifecycleLogPlatform

/// The traces `replay` reads from its arguments: files as given, and every file of a folder
/// (recursively) that holds a trace, whatever its name (issue 30: 3).
///
/// In a folder, a file is read as a trace by its name (`.lmdb`, `.jsonl`, `.ndjson`, in any
/// case) or else by its content (``Replayer/content(of:)``: `session.json`, `g.trace`). Left
/// out without a word are only the files that are known not to be traces:
/// - hidden files and folders (a name starting with `.`);
/// - expected reports (`*.expected.json`);
/// - LMDB lock files (`*.lmdb-lock`, or `NAME-lock` beside a file `NAME`);
/// - the rules files of the command: its `--rules` file and, with `--expect`, the rules files its
///   expected reports record.
///
/// Any other file that is not a trace is ``skipped``, with the reason, for the caller to say so:
/// a warning when replaying, a failure of the gate with `--expect`.
struct TraceScan {
    /// A trace to replay: its path, and its name (its path inside the folder given, or its file
    /// name for a trace given itself).
    struct Entry: Equatable {
        var path: String
        var name: String
    }

    /// A file of a folder that is not read, and why (`not a trace (neither LMDB nor JSON Lines)`).
    struct Skipped: Equatable {
        var path: String
        var name: String
        var reason: String
    }

    /// The traces, in argument order, each folder's sorted by name.
    var entries: [Entry] = []
    /// The files of folders that are not traces.
    var skipped: [Skipped] = []
    /// The folders given that hold no trace.
    var emptyFolders: [String] = []
    /// Whether a folder was given (whose traces are then all of its traces).
    var scannedFolder = false

    /// Scans `arguments`; `notTraces` are files that are not read even in a folder (rules files),
    /// compared by device and inode. A missing file is kept as a trace, to fail as unreadable in
    /// the report, not before it.
    ///
    /// - Throws: `LifecycleLogError` `io` for a missing argument within two edits of a command name.
    init(_ arguments: [String], notTraces: [String] = []) throws {
        let files = FileManager.default
        let excluded = Set(notTraces.compactMap { FileIdentity($0) })
        for argument in arguments {
            let isFolder = Replay.Check.isFolder(argument, files)
            if argument != "-" && isFolder == nil, let command = Replay.Check.closestCommand(to: argument) {
                throw LifecycleLogError(.io, "no such file or folder. Did you mean `replay \(command)`?", path: argument)
            }
            guard isFolder == true else {
                entries.append(Entry(path: argument, name: argument.split(separator: "/").last.map(String.init) ?? argument))
                continue
            }
            scannedFolder = true
            let base = argument.hasSuffix("/") ? argument : argument + "/"
            let found = ((try? files.subpathsOfDirectory(atPath: argument)) ?? []).sorted()
            let names = Set(found)
            let before = entries.count
            for relative in found {
                let path = base + relative
                var info = stat()
                guard stat(path, &info) == 0 else {
                    // A dangling symbolic link: a trace that is gone.
                    if lstat(path, &info) == 0, !Self.isHidden(relative) {
                        skipped.append(Skipped(path: path, name: relative, reason: "a symbolic link to nothing"))
                    }
                    continue
                }
                if (info.st_mode & S_IFMT) == S_IFDIR || Self.isKnownNonTrace(relative, names: names) { continue }
                if excluded.contains(FileIdentity(info)) { continue }
                if (info.st_mode & S_IFMT) != S_IFREG {
                    skipped.append(Skipped(path: path, name: relative, reason: "not a regular file"))
                } else if Replay.Check.isTraceName(relative) || Replayer.content(of: path) != .neither {
                    entries.append(Entry(path: path, name: relative))
                } else {
                    skipped.append(Skipped(path: path, name: relative, reason: "not a trace (neither LMDB nor JSON Lines)"))
                }
            }
            if entries.count == before { emptyFolders.append(argument) }
        }
    }

    /// Whether a path inside a folder has a hidden name, or is inside a hidden folder.
    static func isHidden(_ relative: String) -> Bool {
        relative.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Whether `relative` (a path inside a folder whose files are `names`) is known not to be a
    /// trace: hidden, an expected report, or an LMDB lock file.
    static func isKnownNonTrace(_ relative: String, names: Set<String>) -> Bool {
        if isHidden(relative) || relative.hasSuffix(".expected.json") { return true }
        if relative.lowercased().hasSuffix(".lmdb-lock") { return true }
        return relative.hasSuffix("-lock") && names.contains(String(relative.dropLast("-lock".count)))
    }

    /// The message for a skipped file.
    static func message(_ skipped: Skipped) -> String {
        "skipped \(VisibleText.escape(skipped.path)): \(skipped.reason)"
    }
}

/// A file's device and inode: the same file under any spelling of its path.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
        // `truncatingIfNeeded`: dev_t is signed on Darwin.
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// Whether `a` and `b` name the same file (by identity when both exist, else by their
    /// absolute paths).
    static func same(_ a: String, _ b: String) -> Bool {
        if let x = FileIdentity(a), let y = FileIdentity(b) { return x == y }
        return FilePaths.absolute(a) == FilePaths.absolute(b)
    }
}

/// Path arithmetic for the `rules` option of expected reports.
enum FilePaths {
    /// `path` as an absolute path without `.`, `..` or symbolic links where it exists (its
    /// longest existing ancestor is resolved, the rest appended).
    static func absolute(_ path: String) -> String {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if realpath(path, &resolved) != nil {
            return String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else {
            return join(absolute("."), trimmed)
        }
        let parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        let name = String(trimmed[trimmed.index(after: slash)...])
        return join(absolute(parent), name)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        switch name {
        case "", ".": return folder
        case "..": return folder == "/" ? "/" : String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]).nonEmpty ?? "/"
        default: return (folder.hasSuffix("/") ? folder : folder + "/") + name
        }
    }

    /// The path of `file` relative to the folder `folder`, such as `../rules/team.json`.
    static func relative(from folder: String, to file: String) -> String {
        let from = absolute(folder).split(separator: "/")
        let to = absolute(file).split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)).joined(separator: "/")
    }

    /// The folder holding `path` (`.` for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `word` as one word of a POSIX shell command line: as it is when it has no character the
    /// shell treats specially, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
