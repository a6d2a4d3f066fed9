import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay report TRACE -o timeline.html`
    struct Report: ParsableCommand, OutputOptionsHelp, RuleOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write the trace's timeline as one self-contained HTML page.",
            discussion: """
                A lane per window and one for the app phase, with phase bands (active, inactive, \
                background), opens and dismisses, writes and saves as ticks, run boundaries, and each \
                finding as a marker with its rule, seq and message. Zoom with the wheel, pan by dragging; \
                click a finding in the table to highlight it. Every error is placed (up to 20,000) and \
                the first 5,000 warnings; further findings are counted per stretch of the trace, and the \
                page says how many. The page needs no network: open it anywhere, attach it to a bug report.

                Example:
                  replay report session.lmdb -o timeline.html --explore
                """)

        @Argument(help: "The trace (.lmdb or .jsonl).")
        var trace: String

        @OptionGroup var outputOptions: OutputOptions<Report>
        static let outputHelp = "The HTML file to write."
        static let forceHelp = "Replace an existing -o file even when it is not an HTML page."

        @Flag(help: "Also place the what-if findings (kill-exposure).")
        var explore = false

        @OptionGroup var ruleOptions: RuleOptions<Report>
        static let rulesHelp = "A rules file, as for replay TRACE --rules."

        func run() throws {
            var configuration = try ruleOptions.configuration()
            configuration.explore = explore
            try outputOptions.check(writes: .html, command: "replay report", inputs: [trace] + ruleOptions.files, suggestion: [
                .traceFile: "replay import IN.jsonl -o OUT.lmdb",
                .jsonLines: "replay export TRACE.lmdb -o OUT.jsonl",
                .json: "replay TRACE --format json > OUT.json",
            ])
            try Replayer.refuseFolder(trace)
            warnAboutTornRecords([trace])
            let timeline = try Timeline.build(trace, configuration: configuration, customRules: AppRules.current)
            let output = outputOptions.output
            let out = try Output.to(path: output)
            out.write(timeline.html())
            try out.commit()
            let counted = timeline.moreFindings > 0 ? " (\(timeline.moreFindings) of them counted per stretch rather than placed one by one)" : ""
            // `-o -` is standard output, not a file named "-" (issue 30: 12, "wrote -:").
            let place = output == "-" ? "the page to standard output" : VisibleText.escape(output)
            Output.standardError.write("wrote \(place): \(plural(timeline.events, "event")), \(plural(timeline.errors, "error")), \(plural(timeline.warnings, "warning"))\(counted)\n")
        }
    }
}
