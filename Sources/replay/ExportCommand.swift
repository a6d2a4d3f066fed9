import ArgumentParser
import LifecycleLog

/// What `replay export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    /// JSON Lines, every event and field (the interchange format).
    case jsonl
    /// Chrome trace-event JSON for Perfetto and chrome://tracing.
    case perfetto
}

extension Replay {
    /// `replay export TRACE.lmdb [-o OUT.jsonl]`
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export a trace file as JSON Lines.",
            discussion: """
                Writes a header line and then every event with every field and value it was \
                imported or recorded with. Without -o the lines go to standard output.

                A damaged trace fails the export (exit 2, nothing written) unless --salvage asks for \
                the events before the damage.

                --format perfetto writes Chrome trace-event JSON instead, for ui.perfetto.dev or \
                chrome://tracing: a process per run, a thread per window (and one for the app phase) \
                with its phases as slices, findings and every other event as instants. It reads \
                .lmdb and .jsonl traces; --explore and --rules choose the findings as for replay TRACE.

                Example:
                  replay export session.lmdb -o session.jsonl
                  replay export damaged.lmdb --salvage -o recovered.jsonl
                  replay export session.lmdb --format perfetto -o session.trace.json
                """)

        @Argument(help: "The trace file to read (.lmdb; .jsonl too with --format perfetto).")
        var trace: String

        @Option(name: .shortAndLong, help: "The file to write ('-' or none for standard output).")
        var output: String?

        @Option(help: "jsonl (the interchange format) or perfetto (Chrome trace-event JSON).")
        var format: ExportFormat = .jsonl

        @Flag(help: "With --format perfetto, also place the what-if findings (kill-exposure).")
        var explore = false

        @Option(help: "With --format perfetto, a rules file, as for replay TRACE --rules.")
        var rules: String?

        @Flag(help: "Recover a damaged trace: write every event before the first damaged one, say where it stopped, and exit 0.")
        var salvage = false

        func validate() throws {
            if format == .perfetto, salvage {
                throw ValidationError("--salvage writes JSON Lines; leave out --format perfetto (export the salvaged .jsonl to Perfetto afterwards)")
            }
            if format == .jsonl, explore || rules != nil {
                throw ValidationError("--explore and --rules choose findings, which only --format perfetto exports")
            }
        }

        func run() throws {
            if format == .perfetto { return try exportTraceEvents() }
            let opened = try Trace(path: trace)
            let out = try Output.to(path: output)
            do {
                if salvage {
                    let (events, stoppedBy) = try TraceInterchange.salvageJSONLines(opened) { out.write($0) }
                    try out.commit()
                    if let stoppedBy {
                        Output.standardError.write("replay: salvaged \(events) events; stopped at the damage: \(stoppedBy)\n")
                    } else {
                        Output.standardError.write("replay: the trace is whole: exported all \(events) events\n")
                    }
                } else if output == nil || output == "-" {
                    // Standard output cannot be renamed into place: gather (spilling to
                    // disk) so that a trace damaged halfway prints nothing but its error.
                    let body = SpillBuffer()
                    try TraceInterchange.exportJSONLines(opened) { try body.append($0) }
                    try body.drain(into: out)
                    try out.commit()
                } else {
                    try TraceInterchange.exportJSONLines(opened) { out.write($0) }
                    try out.commit()
                }
            } catch {
                out.discard()
                throw error
            }
        }

        /// `--format perfetto`: the trace-event JSON, written only when whole.
        private func exportTraceEvents() throws {
            var configuration = try loadRuleConfiguration(rules)
            configuration.explore = explore
            let out = try Output.to(path: output)
            do {
                if output == nil || output == "-" {
                    let body = SpillBuffer()  // a trace damaged halfway prints nothing but its error
                    try TraceEventExport.write(trace, configuration: configuration) { try body.append($0) }
                    try body.drain(into: out)
                } else {
                    try TraceEventExport.write(trace, configuration: configuration) { out.write($0) }
                }
                try out.commit()
            } catch {
                out.discard()
                throw error
            }
        }
    }
}
