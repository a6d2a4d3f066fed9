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

                Example:
                  replay export session.lmdb -o session.jsonl
                """)

        @Argument(help: "The trace file to read.")
        var trace: String

        @Option(name: .shortAndLong, help: "The JSON Lines file to write ('-' or none for standard output).")
        var output: String?

        func run() throws {
            let opened = try Trace(path: trace)
            let out = try Output.to(path: output)
            do {
                try TraceInterchange.exportJSONLines(opened) { out.write($0) }
                try out.commit()
            } catch {
                out.discard()
                throw error
            }
        }
    }
}
