import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay import IN.jsonl -o OUT.lmdb`
    struct Import: ParsableCommand, OutputOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a JSON Lines trace into a trace file.",
            discussion: """
                Every line is validated first; on any error the line (and column) is named, \
                the exit status is 2 and no output file is left behind. An existing OUT is \
                replaced only when the import succeeds. -o must not be the input, and its name must not \
                end in another format's extension (.jsonl, .html, .json); an existing file that is not a \
                trace file is replaced only with --force. A last line without a trailing newline \
                that is not valid JSON (a spool whose writer was killed mid-line) is a torn final \
                record: it is dropped with a warning naming the line, and the rest is imported.

                Example:
                  replay import session.jsonl -o session.lmdb
                """)

        @Argument(help: "The JSON Lines trace to read ('-' for standard input).")
        var input: String

        @OptionGroup var outputOptions: OutputOptions<Import>
        static let outputHelp = "The trace file to write (conventionally *.lmdb)."
        static let forceHelp = "Replace an existing -o file even when it is not a trace file."

        func run() throws {
            let output = outputOptions.output
            try outputOptions.check(writes: .traceFile, command: "replay import", inputs: [input], suggestion: [
                .jsonLines: "replay export TRACE.lmdb -o OUT.jsonl (import turns JSON Lines into a trace file)",
                .html: "replay report TRACE -o OUT.html",
                .json: "replay TRACE --format json > OUT.json",
            ])
            let count = try Terminal.withProgress("importing \(input)") { progress in
                try TraceInterchange.importJSONLines(from: input, to: output, progress: progress.update) { warning in
                    Output.standardError.write("warning: \(warning)\n")
                }
            }
            Output.standardError.write("imported \(plural(count, "event")) into \(output)\n")
        }
    }
}
