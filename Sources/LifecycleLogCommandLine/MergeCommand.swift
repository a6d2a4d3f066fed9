import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay merge TRACE SPOOL… -o OUT.lmdb`
    struct Merge: ParsableCommand, OutputOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Put a collector's trace and its clients' fallback spools back into one session.",
            discussion: """
                A CollectorSink stamps every event with a "delivery" member (which sink, which \
                event of it); an event the trace already holds (a batch the collector stored but \
                could not acknowledge before it stopped, which the sink then spooled) is left out, \
                so nothing is there twice. Spool events are moved onto the trace's timeline by the \
                offset of their sink's nearest event in the trace, and everything is written in t \
                order, with new seqs, to OUT (atomically, like import). Spool lines without a \
                "delivery" member (from older clients) are kept at their own t and counted.

                Example:
                  replay merge session.lmdb spool.jsonl widget-spool.jsonl -o whole.lmdb
                """)

        @Argument(help: "The collector's trace file.")
        var trace: String

        @Argument(help: "The fallback spool files (JSON Lines).")
        var spools: [String] = []

        @OptionGroup var outputOptions: OutputOptions<Merge>
        static let outputHelp = "The trace file to write (conventionally *.lmdb)."
        static let forceHelp = "Replace an existing -o file even when it is not a trace file."

        func run() throws {
            let output = outputOptions.output
            try outputOptions.check(writes: .traceFile, command: "replay merge", inputs: [trace] + spools, suggestion: [
                .jsonLines: "replay merge TRACE SPOOL… -o OUT.lmdb, then replay export OUT.lmdb -o OUT.jsonl",
                .html: "replay report TRACE -o OUT.html",
                .json: "replay TRACE --format json > OUT.json",
            ])
            let summary = try TraceInterchange.merge(trace: trace, spools: spools, to: output) { warning in
                Output.standardError.write("warning: \(warning)\n")
            }
            var text = "merged \(plural(summary.fromTrace, "event")) from the trace and \(summary.fromSpools) from the spools into \(output)"
            text += " (\(summary.duplicates) already there left out"
            if summary.unidentified > 0 { text += "; \(plural(summary.unidentified, "spool event")) without a delivery member kept at \(summary.unidentified == 1 ? "its" : "their") own t" }
            Output.standardError.write(text + ")\n")
        }
    }
}
