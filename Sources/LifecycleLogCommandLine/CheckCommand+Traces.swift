import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
internal import LifecycleLogPlatform

/// The traces the arguments name, and their replay on all cores.
extension Replay.Check {
    /// Whether `path` is a folder (`true`), another file (`false`), or missing (`nil`).
    static func isFolder(_ path: String, _ files: FileManager) -> Bool? {
        #if canImport(FoundationEssentials)
        var folder = false
        #else
        var folder: ObjCBool = false
        #endif
        guard files.fileExists(atPath: path, isDirectory: &folder) else { return nil }
        #if canImport(FoundationEssentials)
        return folder
        #else
        return folder.boolValue
        #endif
    }

    /// Files as given; folders become the traces inside them (recursively), sorted by path
    /// (``TraceScan``). A file of a folder that is not a trace is named in a warning; a folder
    /// without any trace is an error.
    static func expand(_ arguments: [String], notTraces: [String] = []) throws -> [String] {
        let scan = try TraceScan(arguments, notTraces: notTraces)
        for skipped in scan.skipped { Output.standardError.write("warning: \(TraceScan.message(skipped))\n") }
        if let empty = scan.emptyFolders.first { throw Self.noTraces(in: empty) }
        return scan.entries.map(\.path)
    }

    /// The error for a folder given that holds no trace.
    static func noTraces(in folder: String) -> LifecycleLogError {
        LifecycleLogError(.io, "the folder holds no traces (.lmdb, .jsonl or .ndjson files, or files of other names that hold one)", path: folder)
    }

    /// Whether a file found in a folder is a trace by its name: `.lmdb`, `.jsonl` or
    /// `.ndjson` (in any case), and not hidden. (Files of other names are traces when their
    /// content says so: ``TraceScan``.)
    static func isTraceName(_ relative: String) -> Bool {
        let lower = relative.lowercased()
        return (lower.hasSuffix(".lmdb") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson"))
            && !TraceScan.isHidden(relative)
    }

    /// Replays `paths` on all cores; results keep the order of `paths`, and a
    /// trace that cannot be read is its error, not the end of the others.
    static func replayAll(_ paths: [String], configuration: RuleConfiguration) throws -> [Result<ReplayReport, LifecycleLogError>] {
        try replayAll(paths, configurations: Array(repeating: configuration, count: paths.count))
    }

    /// Like ``replayAll(_:configuration:)``, each trace with its own configuration.
    static func replayAll(_ paths: [String], configurations: [RuleConfiguration]) throws -> [Result<ReplayReport, LifecycleLogError>] {
        let single = paths.count == 1
        let total = single ? (Replayer.isJSONLines(paths[0]) ? nil : (try? Trace(path: paths[0]).eventCount).map(UInt64.init))
            : UInt64(paths.count)
        return try Terminal.withProgress(single ? "replaying \(paths[0])" : "replaying \(paths.count) traces", total: total) { progress in
            replayAll(paths, configurations: configurations, progress: progress, single: single)
        }
    }

    private static func replayAll(_ paths: [String], configurations: [RuleConfiguration], progress: Terminal.Progress,
                                  single: Bool) -> [Result<ReplayReport, LifecycleLogError>] {
        let results = Locked<[Result<ReplayReport, LifecycleLogError>?]>(Array(repeating: nil, count: paths.count))
        let finished = Locked(0)  // counted, not found by scanning `results` after each trace (quadratic in traces)
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let result: Result<ReplayReport, LifecycleLogError>
            do {
                result = .success(try Replayer.replay(paths[i], configuration: configurations[i], customRules: AppRules.current, progress: single ? { progress.update($0) } : nil))
            } catch let error as LifecycleLogError {
                result = .failure(error)
            } catch {
                result = .failure(LifecycleLogError(.io, "\(error)", path: paths[i]))
            }
            results.withLock { $0[i] = result }
            let done = finished.withLock { count -> Int in
                count += 1
                return count
            }
            if !single { progress.update(UInt64(done)) }
        }
        // `!`: concurrentPerform has run every iteration.
        return results.withLock { $0 }.map { $0! }
    }
}
