import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay record TRACE`
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Append events arriving as JSON Lines on standard input, or from apps over TCP (--listen), to a trace.",
            discussion: """
                For harnesses in any language: a UI-test runner, a log adapter, a shell script. \
                The trace is created if needed; an existing one continues its seq numbering. \
                Each line is validated as import does: a bad line is reported on standard error \
                with its line number and skipped, every good line is kept, and the exit status \
                is 2 at the end if any line was rejected. Events are committed as soon as the \
                input pauses, so a kill leaves a prefix of what was sent. `replay` can read \
                the trace while it is being recorded.

                With --listen HOST:PORT, `replay` is a collector instead: apps, their \
                extensions and test runners connect with CollectorSink (or speak \
                spec/collector-protocol.md), and the events of every connection go into the \
                one trace, in arrival order, each stamped with its connection's process. Bad \
                lines are refused with an error line to that client and a message here; \
                other clients are unaffected. It prints "listening on HOST:PORT" (the real \
                port when 0 was given) on standard error, and on SIGINT or SIGTERM commits \
                and exits 0. Only loopback addresses are allowed without --token.

                Examples:
                  my-ui-test-runner --emit-lifecycle | replay record session.lmdb
                  replay record --listen 127.0.0.1:7777 session.lmdb
                  replay record --listen 0.0.0.0:7777 --token "$SECRET" session.lmdb
                """)

        @Argument(help: "The trace file to append to (created when missing).")
        var trace: String

        @Option(name: .shortAndLong, help: "Read from this file instead of standard input.")
        var input: String = "-"

        @Option(help: ArgumentHelp("Collect from apps over TCP on this address instead of reading standard input.", valueName: "host:port"))
        var listen: String?

        @Option(help: "With --listen: the secret every client must present (needed beyond the loopback address).")
        var token: String?

        func validate() throws {
            if listen == nil && token != nil { throw ValidationError("--token goes with --listen") }
            if listen != nil && input != "-" { throw ValidationError("--input and --listen are two different sources; give one") }
        }

        func run() throws {
            // Like every writing command: a name of another format is refused (issue 22), so
            // that `record t.jsonl` does not leave a trace file that readers take for JSON Lines.
            try OutputFile.check(trace, writes: .traceFile, command: "replay record", inputs: [input], force: false, suggestion: [
                .jsonLines: "replay record TRACE.lmdb, then replay export TRACE.lmdb -o OUT.jsonl",
                .html: "replay report TRACE -o OUT.html",
                .json: "replay TRACE --format json > OUT.json",
            ], argument: "the trace")
            if let listen {
                try collect(on: listen)
                return
            }
            let summary = try TraceInterchange.record(from: input, to: trace) { error in
                Output.standardError.write("replay: rejected: \(error)\n")
            }
            Output.standardError.write("recorded \(summary.accepted) events into \(trace) (last seq \(summary.lastSeq))"
                + (summary.rejected > 0 ? "; rejected \(summary.rejected) lines\n" : "\n"))
            if summary.rejected > 0 { throw ExitCode(2) }
        }

        private func collect(on address: String) throws {
            let (host, port) = try TraceCollector.parse(address: address)
            let collector = try TraceCollector(trace: trace, host: host, port: port, token: token)
            Interruption.handle { collector.stop() }
            Output.standardError.write("listening on \(collector.address)\n")
            let summary = try collector.run { message in Output.standardError.write("replay: \(message)\n") }
            Output.standardError.write("recorded \(summary.accepted) events from \(summary.connections) connections into \(trace) (last seq \(summary.lastSeq))"
                + (summary.rejected > 0 ? "; rejected \(summary.rejected) lines" : "")
                + (summary.refused > 0 ? "; refused \(summary.refused) connections\n" : "\n"))
        }
    }
}
