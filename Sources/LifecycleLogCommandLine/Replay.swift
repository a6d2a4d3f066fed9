import ArgumentParser
import LifecycleLog

internal import LifecycleLogPlatform

/// The `replay` command line, as a library: an app team's own executable runs it with the app's
/// own rules, which every subcommand then runs beside the catalogue's and `--rules` files name.
///
/// ```swift
/// // Sources/replay-notes/main.swift, in the app's package:
/// import LifecycleLogCommandLine
/// import NotesLifecycleRules  // the team's `LifecycleRule`s
///
/// ReplayCommand.main(customRules: [SharedWritesComeFromWindows(), DraftsSaveWithinASecond()])
/// ```
public enum ReplayCommand {
    /// Runs `replay` with the process's arguments and exits with its status: 0 when all is well,
    /// 1 when `--assert` or `--expect` failed, 2 for bad input or arguments (including app rules
    /// that cannot run together: an empty or invalid id, a catalogue id, an id used twice), 130 or
    /// 143 when interrupted (SIGINT, SIGTERM), and SIGPIPE's 141 when standard output is a pipe
    /// closed early (`replay --help` lists them).
    ///
    /// - Parameter customRules: the app's own rules. `replay TRACE --assert`, `report`, `minimize
    ///   --rule ID`, `export --format perfetto`, `stats` and every other command that replays run
    ///   them beside the catalogue's; `--rules` files can switch them off or re-grade them by id.
    public static func main(customRules: [any LifecycleRule] = []) -> Never {
        AppRules.install(customRules)
        Replay.main()
    }

    /// Runs `replay` with the app's own rules (the earlier spelling of ``main(customRules:)``).
    @available(*, deprecated, renamed: "main(customRules:)")
    public static func main(appRules: [any LifecycleRule]) -> Never {
        main(customRules: appRules)
    }
}

/// The app rules of this process (``ReplayCommand/main(customRules:)``), set once before the
/// arguments are parsed and read by every command.
enum AppRules {
    private static let rules = Locked<[any LifecycleRule]>([])

    static func install(_ appRules: [any LifecycleRule]) { rules.withLock { $0 = appRules } }

    /// The app rules; `[]` for the plain `replay`.
    static var current: [any LifecycleRule] { rules.withLock { $0 } }
}

/// `replay`: record, import, export and check SwiftUI lifecycle traces.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay SwiftUI lifecycle traces and flag lost saves, lost updates and window bugs.",
        discussion: """
            Exit status:
              0    all is well
              1    --assert found an error (with --strict, a warning too) or a trace
                   with no events; --expect found a difference, or an expected
                   report without its trace
              2    bad input or arguments: a trace that cannot be read, a line that
                   record rejected, standard output that could not be written
              130  interrupted by Ctrl-C (SIGINT); 143 by kill (SIGTERM). Temporary
                   files are removed first; record --listen commits and exits 0
              141  standard output was a pipe that its reader closed (SIGPIPE, as
                   in replay dump TRACE | head)

            Example:
              replay import session.jsonl -o session.lmdb
              replay session.lmdb --assert
            """,
        version: LifecycleLogVersion.current,
        // Every subcommand gives its `commandName`: without one, ArgumentParser derives the name from
        // the type's with `String(describing:)`, a runtime conformance lookup per command at every
        // start-up (about 7 M instructions, 2% of `replay TRACE --assert` on 200,000 events).
        subcommands: [Check.self, Import.self, Export.self, Record.self, Report.self, Summary.self, Stats.self, Dump.self, Generate.self, Minimize.self, Merge.self, Rules.self],
        defaultSubcommand: Check.self
    )

    /// Runs the command; errors become the exit statuses promised in the help:
    /// 2 for bad input and arguments (including argument-parser's own usage
    /// errors, which it would otherwise report as 64).
    static func main() -> Never {
        // A file-size limit (ulimit -f) must fail a write with EFBIG, reported
        // like a full disk, rather than kill the process with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        Interruption.install()
        do {
            if let problem = CustomRules.problem(with: AppRules.current) {
                throw LifecycleLogError(.invalidArgument, "this replay was built with app rules that cannot run together: \(problem)")
            }
            // A bare `replay`: a short usage and where the help is, as argument-parser words a
            // usage error, not an error followed by the whole help (issue 30: 12).
            if CommandLine.arguments.count <= 1 {
                Output.standardError.write(bareUsage)
                processExit(2)
            }
            var command: any ParsableCommand
            do {
                command = try parseAsRoot()
            } catch {
                // `replay improt a -o b` parses as a check of the traces "improt" and "a"
                // with an unknown option: say which command was meant instead.
                if let hint = mistypedCommand(Array(CommandLine.arguments.dropFirst())) ?? negativeNumber(Array(CommandLine.arguments.dropFirst())) {
                    Output.standardError.write("replay: error: \(hint)\n")
                    processExit(2)
                }
                throw error
            }
            try command.run()
            try Output.standardOutput.flush()
            processExit(0)
        } catch let error as LifecycleLogError {
            Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n")
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

/// What a bare `replay` prints: what it needs, the two shapes of a command line, and where the help is.
let bareUsage = """
    Error: name the traces to replay (files or folders), or a command
    Usage: replay <traces> ... [--assert] [--explore] [--expect <expect>] [<options>]
           replay <subcommand> [<arguments>]
      See 'replay --help' for more information.

    """

/// For arguments whose first word is not a command, an option or an existing
/// file but is within two edits of a command: the "did you mean" sentence.
func mistypedCommand(_ arguments: [String]) -> String? {
    guard let word = arguments.first, !word.hasPrefix("-"), access(word, F_OK) != 0,
          !Replay.configuration.subcommands.contains(where: { ($0.configuration.commandName ?? String(describing: $0).lowercased()) == word }),
          let command = Replay.Check.closestCommand(to: word) else { return nil }
    return "unknown command '\(VisibleText.escape(word))'. Did you mean `replay \(command)`? (replay --help lists the commands)"
}

/// For arguments that failed to parse because an option's value is a negative
/// number (which argument-parser takes for an option, and reports as a
/// "Missing value"): the sentence that says so.
func negativeNumber(_ arguments: [String]) -> String? {
    for (option, value) in zip(arguments, arguments.dropFirst()) where option.hasPrefix("-") && option != "--" {
        guard value.count > 1, value.hasPrefix("-"), let first = value.dropFirst().first, first.isNumber || first == "." else { continue }
        guard Double(value) != nil else { continue }
        let name = VisibleText.escape(option)
        return "\(name) takes a number of 0 or more, got \(VisibleText.escape(value)): a negative number has no meaning there (replay COMMAND --help says what \(name) takes)"
    }
    return nil
}

/// Flushes standard output and ends the process with `status`, or with 2
/// when standard output could not be written (a full disk under `> file`):
/// a report that did not reach its file is not a success. Temporary files
/// still registered (an output abandoned by an error) are removed first.
func processExit(_ status: Int32) -> Never {
    var status = status
    do {
        try Output.standardOutput.flush()
    } catch {
        if status != 2 {
            Output.standardError.write("replay: error: \(VisibleText.escape(String(describing: error)))\n")
        }
        status = 2
    }
    if status != 0 { TemporaryFiles.removeAll() }
    exit(status)
}
