import ArgumentParser
import LifecycleLog

/// What `replay summary` prints.
enum SummaryFormat: String, ExpressibleByArgument, CaseIterable {
    /// A block of lines per group.
    case text
    /// One JSON object.
    case json
    /// One self-contained HTML page, linking to the example traces' timeline pages.
    case html
}

extension Replay {
    /// `replay summary TRACE|FOLDER… [--format text|json|html] [-o FILE] [--assert [--strict]]`
    struct Summary: ParsableCommand, RuleOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Replay many traces and group their findings by fingerprint: which bugs, in how many traces, runs and builds.",
            discussion: """
                Traces and folders are found as replay TRACE|FOLDER finds them, and replayed in parallel with the same \
                rules (--rules, --explore, the app's own rules). Findings with the same identity (the hash of \
                lifecycleFindingHash/v2, SARIF's fingerprint without its :N) form one group: its rule, severity and \
                subject (scenes, keys, other words), how many traces and runs (launch to launch) it appears in, the \
                builds, OS versions, platforms and processes of those runs (from their launch events), the first and \
                last build it was seen in, and one example: the first trace in path order, then seq. Groups are sorted \
                by traces (most first), then errors before warnings, rule and fingerprint.

                Builds and OS versions are ordered numerically where they hold numbers (9 before 10, 1.9 before 1.10), \
                then by their bytes; each list shows its first 20 values and how many more.

                With --format html, each example links to NAME.html#seq-N beside the page: the timeline page of the \
                trace NAME (its extension replaced by .html) that replay report writes; the page lists the commands.

                A trace that cannot be read is named on standard error and left out; the others are summarised and the \
                exit status is 2. With --assert, the status is 1 when a group is an error (with --strict, a warning too).

                Examples:
                  replay summary traces/
                  replay summary traces/ --format json -o summary.json
                  replay summary traces/ --format html -o out/index.html
                  replay summary traces/ --assert
                """)

        @Argument(help: "Trace files (.lmdb), JSON Lines traces (.jsonl, .ndjson) or folders of them.")
        var traces: [String]

        @Option(help: "text, json or html.")
        var format: SummaryFormat = .text

        @Option(name: .shortAndLong, help: "The file to write (default: standard output).")
        var output: String?

        @Flag(help: "Replace an existing -o file even when it holds something else.")
        var force = false

        @Flag(help: "Exit with status 1 when a group of errors is found.")
        var assert = false

        @Flag(help: "With --assert, fail on groups of warnings too.")
        var strict = false

        @Flag(help: "Also run the what-if rules (kill-exposure).")
        var explore = false

        @OptionGroup var ruleOptions: RuleOptions<Summary>
        static let rulesHelp = "A rules file, as for replay TRACE --rules."

        @Option(help: "Show and --assert only the groups that are not in this baseline file (spec/baseline.md); list its entries no group has any more.")
        var baseline: String?

        @Option(help: "Write every group's fingerprint to this baseline file (spec/baseline.md), for a later --baseline.")
        var writeBaseline: String?

        func validate() throws {
            if traces.isEmpty { throw ValidationError("Name at least one trace or folder, for example: replay summary traces/") }
            if let baseline, baseline == writeBaseline {
                throw ValidationError("--write-baseline would replace the --baseline it compares with; write the new baseline to another file")
            }
            if writeBaseline == "-" {
                throw ValidationError("--write-baseline needs a file name: the summary goes to standard output (replay summary traces/ --write-baseline lifecycle-baseline.json)")
            }
            if strict && !assert { throw ValidationError("--strict goes with --assert: replay summary traces/ --assert --strict") }
        }

        func run() throws {
            var configuration = try ruleOptions.configuration()
            configuration.explore = explore
            let accepted = try baseline.map { path in try FindingBaseline.load(path, text: Check.readText(path)) }
            let scan = try TraceScan(traces, notTraces: [ruleOptions.rules, baseline, writeBaseline].compactMap { $0 })
            for skipped in scan.skipped { Output.standardError.write("warning: \(TraceScan.message(skipped))\n") }
            if let empty = scan.emptyFolders.first { throw Check.noTraces(in: empty) }
            let entries = scan.entries
            if let output { try checkOutput(output, inputs: entries.map(\.path) + ruleOptions.files) }
            warnAboutTornRecords(entries.map(\.path))

            if let writeBaseline {
                try OutputFile.check(writeBaseline, writes: .json, command: "replay summary --write-baseline",
                                     inputs: entries.map(\.path) + [ruleOptions.rules, baseline].compactMap { $0 }, force: false,
                                     argument: "--write-baseline")
            }
            var summary = try Terminal.withProgress("summarising \(entries.count) trace\(entries.count == 1 ? "" : "s")",
                                                    total: UInt64(entries.count), unit: "trace") { progress in
                FindingSummary.gather(entries.map { ($0.path, $0.name) }, configuration: configuration,
                                      customRules: AppRules.current, progress: { progress.update(UInt64($0)) })
            }
            if let writeBaseline {
                if summary.sortedUnreadable.isEmpty {
                    let file = try Output.to(path: writeBaseline)
                    file.write(FindingBaseline(groups: summary.sortedGroups).json())
                    try file.commit()
                } else {
                    // Without their findings, the next run would call them all new.
                    Output.standardError.write("replay: error: \(VisibleText.escape(writeBaseline)): the baseline was not written: "
                        + "\(plural(summary.sortedUnreadable.count, "trace")) could not be read (below)\n")
                }
            }
            var trailer = ""
            if let accepted, let baseline {
                let absent = accepted.compare(seen: summary.groups.values.map(\.fingerprint)).absent
                let (groups, findings) = summary.setAside(accepted)
                trailer = FindingBaseline.textNote(path: baseline, hidden: "\(plural(groups, "group")) (\(plural(findings, "finding")))", absent: absent)
            }
            let rendered = switch format {
            case .text: summary.text() + (trailer.isEmpty ? "" : "\n" + trailer)
            case .json: summary.json()
            case .html: summary.html(reportCommand: reportCommand)
            }
            let out = try Output.to(path: output)
            out.write(rendered)
            try out.commit()

            let unreadable = summary.sortedUnreadable
            if !unreadable.isEmpty {
                for trace in unreadable { Output.standardError.write("replay: error: \(VisibleText.escape(trace.reason))\n") }
                Output.standardError.write("replay: \(unreadable.count) of \(entries.count) traces could not be read; the summary is of the others\n")
                throw ExitCode(2)
            }
            if assert {
                let failing = summary.sortedGroups.filter { $0.severity == .error || (strict && $0.severity == .warning) }
                if let first = failing.first {
                    let what = strict ? "error or warning group" : "error group"
                    Output.standardError.write("replay: assertion failed: \(failing.count) \(what)\(failing.count == 1 ? "" : "s") "
                        + "(the first: [\(first.rule.rawValue)] in \(first.traces) trace\(first.traces == 1 ? "" : "s"))\n")
                    throw ExitCode(1)
                }
            }
        }

        /// The `replay report` command that writes the timeline page an example links to: beside
        /// the `-o` page (or in the current folder), with the options of this summary.
        private func reportCommand(_ example: FindingSummary.Example) -> String {
            let page = FindingSummary.timelinePage(for: example.name)
            let folder = output.flatMap { $0 == "-" ? nil : FilePaths.folder(of: $0) } ?? "."
            let target = folder == "." ? page : (folder.hasSuffix("/") ? folder : folder + "/") + page
            let options = (explore ? ["--explore"] : []) + (ruleOptions.rules.map { ["--rules", $0] } ?? [])
            return (["replay", "report", example.trace, "-o", target] + options).map(FilePaths.shellWord).joined(separator: " ")
        }

        /// The checks of every command's `-o`: never an input, an extension that agrees with the
        /// format, an existing file of another kind replaced only with --force.
        private func checkOutput(_ output: String, inputs: [String]) throws {
            let suggestion: [OutputFile.Kind: String] = [
                .traceFile: "replay import IN.jsonl -o OUT.lmdb",
                .jsonLines: "replay export TRACE.lmdb -o OUT.jsonl",
                .json: "replay summary TRACES --format json -o OUT.json",
                .html: "replay summary TRACES --format html -o OUT.html",
            ]
            switch format {
            case .json:
                try OutputFile.check(output, writes: .json, command: "replay summary --format json", inputs: inputs, force: force, suggestion: suggestion)
            case .html:
                try OutputFile.check(output, writes: .html, command: "replay summary --format html", inputs: inputs, force: force, suggestion: suggestion)
            case .text:
                // Text has no kind of its own: any name but another kind's, replacing text or an empty file.
                guard output != "-" else { return }
                try OutputFile.checkNotInput(output, inputs: inputs)
                if let named = OutputFile.Kind.named(by: output) {
                    throw LifecycleLogError(.invalidArgument,
                        "replay summary writes text, but the name ends in the extension of \(named.rawValue); "
                        + "to write that, use: \(suggestion[named] ?? "another command"); or give -o a name such as summary.txt",
                        path: output)
                }
                if Check.isFolder(output, .default) == true {
                    throw LifecycleLogError(.invalidArgument, "is a folder; -o needs a file name", path: output)
                }
                try OutputFile.checkNotSpecial(output)
                if !force, let found = OutputFile.existingKind(output) {
                    throw LifecycleLogError(.invalidArgument,
                        "the file exists and holds \(found.rawValue), not a text summary; pass --force to replace it, or choose another name",
                        path: output)
                }
            }
        }
    }
}
