import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay record TRACE`
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Append events arriving as JSON Lines on standard input to a trace, as they arrive.",
            discussion: """
                For harnesses in any language: a UI-test runner, a log adapter, a shell script. \
                The trace is created if needed; an existing one continues its seq numbering. \
                Each line is validated as import does: a bad line is reported on standard error \
                with its line number and skipped, every good line is kept, and the exit status \
                is 2 at the end if any line was rejected. Events are committed as soon as the \
                input pauses, so a kill leaves a prefix of what was sent. `replay` can read \
                the trace while it is being recorded.

                Example:
                  my-ui-test-runner --emit-lifecycle | replay record session.lmdb
                """)

        @Argument(help: "The trace file to append to (created when missing).")
        var trace: String

        @Option(name: .shortAndLong, help: "Read from this file instead of standard input.")
        var input: String = "-"

        func run() throws {
            let summary = try TraceInterchange.record(from: input, to: trace) { error in
                Output.standardError.write("replay: rejected: \(error)\n")
            }
            Output.standardError.write("recorded \(summary.accepted) events into \(trace) (last seq \(summary.lastSeq))"
                + (summary.rejected > 0 ? "; rejected \(summary.rejected) lines\n" : "\n"))
            if summary.rejected > 0 { throw ExitCode(2) }
        }
    }
}
