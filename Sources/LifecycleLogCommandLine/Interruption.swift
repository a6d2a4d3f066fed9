import Dispatch
internal import LifecycleLogPlatform
import LifecycleLog

/// Ctrl-C (SIGINT) and `kill` (SIGTERM) remove the temporary files of the
/// command (`TemporaryFiles`) before `replay` ends. The signals are taken
/// by Dispatch signal sources, so the cleanup runs on a queue, not in a
/// signal handler; then `replay` exits with 128 + the signal's number (130
/// for SIGINT, 143 for SIGTERM), the status a shell reports for a command
/// ended by that signal.
///
/// A file created in the few microseconds between the cleanup and the end
/// can in principle survive; the long-lived temporary files (the trace being
/// imported or generated) exist from the start of the work.
enum Interruption {
    /// What to do instead of exiting, when a command (`record --listen`) ends cleanly on a signal itself.
    private static let instead = Locked<(@Sendable () -> Void)?>(nil)
    /// The signal sources, kept for the life of the process. (Retained through `as AnyObject`, a
    /// source cost a million instructions of dynamic casts at every start of `replay`.)
    private static let sources = Locked<[any DispatchSourceSignal]>([])

    /// Makes SIGINT and SIGTERM call `action` instead of ending `replay`.
    static func handle(with action: @escaping @Sendable () -> Void) {
        instead.withLock { $0 = action }
    }

    /// Starts handling SIGINT and SIGTERM. Call once, early.
    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // delivered to the source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if let action = instead.withLock({ $0 }) {
                    action()
                    return
                }
                TemporaryFiles.removeAll()
                Output.standardError.write("\n")
                _exit(128 + number)
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }
}
