import ArgumentParser
import LifecycleLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `replay`: record, import, export and check SwiftUI lifecycle traces.
@main
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay SwiftUI lifecycle traces and flag lost saves, lost updates and window bugs.",
        discussion: """
            Exit status: 0 when all is well, 1 when --assert found an error (or a warning with --strict), \
            2 for bad input or arguments.

            Example:
              replay import session.jsonl -o session.lmdb
              replay session.lmdb --assert
            """,
        subcommands: [Check.self, Import.self, Export.self, Record.self, Report.self, Stats.self, Dump.self, Generate.self, Minimize.self],
        defaultSubcommand: Check.self
    )

    /// Runs the command; errors become the exit statuses promised in the help:
    /// 2 for bad input and arguments (including argument-parser's own usage
    /// errors, which it would otherwise report as 64).
    static func main() {
        // A file-size limit (ulimit -f) must fail a write with EFBIG, reported
        // like a full disk, rather than kill the process with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
            try Output.standardOutput.flush()
        } catch let error as LifecycleLogError {
            Output.standardError.write("replay: error: \(error)\n")
            processExit(2)
        } catch let code as ExitCode {
            processExit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                Output.standardOutput.write(message + "\n")
                processExit(0)
            }
            Output.standardError.write(message + "\n")
            processExit(2)
        }
    }
}

/// Flushes standard output and ends the process with `status`.
func processExit(_ status: Int32) -> Never {
    try? Output.standardOutput.flush()
    exit(status)
}
