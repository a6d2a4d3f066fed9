import ArgumentParser
import LifecycleLog

/// What `replay stats` prints.
enum StatsFormat: String, ExpressibleByArgument, CaseIterable {
    /// Aligned text.
    case text
    /// One JSON object.
    case json
}

extension Replay {
    /// `replay stats TRACE`
    struct Stats: ParsableCommand, ProcessOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Print counts for a trace: events per kind, runs, windows, time span, findings per rule.",
            discussion: """
                Example:
                  replay stats session.lmdb
                  replay stats session.lmdb --format json
                  replay stats session.lmdb --process com.example.notes.widget
                """)

        @Argument(help: "The trace (.lmdb or .jsonl).")
        var trace: String

        @Option(help: "text or json.")
        var format: StatsFormat = .text

        @Flag(help: "Count the what-if findings (kill-exposure) too.")
        var explore = false

        @OptionGroup var processOptions: ProcessOptions<Stats>
        static let processHelp = "Count only this process's events and findings (trace format 2; \"\" is the main app)."

        func run() throws {
            var configuration = RuleConfiguration()
            configuration.explore = explore
            try Replayer.refuseFolder(trace)  // a .jsonl trace works too: not "name a .lmdb file" (issue 30: 12)
            warnAboutTornRecords([trace])
            let stats = try TraceStatistics.gather(trace, configuration: configuration, customRules: AppRules.current, process: processOptions.process)
            Output.standardOutput.write(format == .json ? stats.json() : stats.text())
        }
    }
}
