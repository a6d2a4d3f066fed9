import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay TRACE… [--assert]` (placeholder until the reducer lands).
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", abstract: "Replay traces and report findings.")
        @Argument(help: "Traces to replay.") var traces: [String] = []
        func run() throws {
            for path in traces {
                let trace = try Trace(path: path)
                Output.standardOutput.write("\(path): \(try trace.eventCount) events\n")
            }
            try Output.standardOutput.flush()
        }
    }
}
