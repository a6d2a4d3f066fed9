internal import LifecycleLogPlatform

/// The temporary files this process is writing (an import or a generated
/// trace before it is renamed into place), so that a command interrupted by
/// Ctrl-C or `kill` can remove them instead of leaving hidden files of
/// hundreds of megabytes behind.
///
/// The library registers the files it creates; a program that handles
/// SIGINT and SIGTERM calls ``removeAll()`` from its handler (a Dispatch
/// signal source, not a raw signal handler: it takes a lock) before it ends.
package enum TemporaryFiles {
    private static let paths = Locked<[String]>([])

    /// Registers `path` as a temporary file to remove on interruption.
    package static func register(_ path: String) {
        paths.withLock { $0.append(path) }
    }

    /// Forgets `path` (once it is renamed into place or removed).
    package static func unregister(_ path: String) {
        paths.withLock { all in
            if let i = all.lastIndex(of: path) { all.remove(at: i) }
        }
    }

    /// The paths registered now, in registration order.
    package static var registered: [String] { paths.withLock { $0 } }

    /// Removes every registered file and forgets them. Files being written
    /// stay open in the writer but lose their name, so nothing is left once
    /// the process ends.
    package static func removeAll() {
        paths.withLock { all in
            for path in all { unlink(path) }
            all.removeAll()
        }
    }
}
