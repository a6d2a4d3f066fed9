import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay export TRACE.lmdb [-o OUT.jsonl]`
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export a trace file as JSON Lines.",
            discussion: """
                Writes a header line and then every event with every field and value it was \
                imported or recorded with. Without -o the lines go to standard output.

                A damaged trace fails the export (exit 2, nothing written) unless --salvage asks for \
                every event that can still be read: all those before the damage, then those the \
                file's pages still hold after it (also from a truncated file).

                Example:
                  replay export session.lmdb -o session.jsonl
                  replay export damaged.lmdb --salvage -o recovered.jsonl
                """)

        @Argument(help: "The trace file to read.")
        var trace: String

        @Option(name: .shortAndLong, help: "The JSON Lines file to write ('-' or none for standard output).")
        var output: String?

        @Flag(help: "Replace an existing -o file even when it is not JSON Lines.")
        var force = false

        @Flag(help: "Recover a damaged trace: write every event that can still be read, in seq order, say what could not be, and exit 0.")
        var salvage = false

        func run() throws {
            if let output {
                try OutputFile.check(output, writes: .jsonLines, command: "replay export", inputs: [trace], force: force, suggestion: [
                    .traceFile: "replay import IN.jsonl -o OUT.lmdb (export turns a trace file into JSON Lines)",
                    .html: "replay report TRACE -o OUT.html",
                    .json: "replay TRACE --format json > OUT.json",
                ])
            }
            if salvage { return try runSalvage() }
            let opened = try Trace(path: trace)
            let out = try Output.to(path: output)
            do {
                if output == nil || output == "-" {
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

        private func runSalvage() throws {
            let out = try Output.to(path: output)
            do {
                let summary = try TraceInterchange.salvageJSONLines(path: trace) { out.write($0) }
                try out.commit()
                Output.standardError.write("replay: \(summary)\n")
            } catch {
                out.discard()
                throw error
            }
        }
    }
}
