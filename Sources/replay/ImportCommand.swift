import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay import IN.jsonl -o OUT.lmdb`
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a JSON Lines trace into a trace file.",
            discussion: """
                Every line is validated first; on any error the line (and column) is named, \
                the exit status is 2 and no output file is left behind. An existing OUT is \
                replaced only when the import succeeds.

                Example:
                  replay import session.jsonl -o session.lmdb
                """)

        @Argument(help: "The JSON Lines trace to read ('-' for standard input).")
        var input: String

        @Option(name: .shortAndLong, help: "The trace file to write (conventionally *.lmdb).")
        var output: String

        func run() throws {
            let count = try Terminal.withProgress("importing \(input)") { progress in
                try TraceInterchange.importJSONLines(from: input, to: output, progress: progress.update)
            }
            Output.standardError.write("imported \(count) events into \(output)\n")
        }
    }
}
