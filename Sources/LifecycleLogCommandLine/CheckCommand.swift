import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
internal import LifecycleLogPlatform

extension ReportFormat: ExpressibleByArgument {}

extension Replay {
    /// `replay TRACE… [--assert] [--strict] [--explore] [--format …] [--rules FILE]`
    struct Check: ParsableCommand, RuleOptionsHelp, ProcessOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Replay traces and report what the rules find (the default command).",
            discussion: """
                TRACE is a trace file (.lmdb), a JSON Lines trace (.jsonl or .ndjson, replayed directly, nothing \
                written; a file under another name is read as what it holds) or a folder, whose traces are \
                replayed in parallel and reported together in name order. In a folder every file is read as what \
                it holds, except hidden files, expected reports (*.expected.json), LMDB lock files and the rules \
                files in use; a file that holds no trace is named in a warning ("skipped c.txt: not a trace").

                --expect compares each trace's report with its expected report (T.expected.json for T.jsonl: \
                with a folder, --expect names the folder that holds them, such as the traces' own) on rule, \
                severity, seq, related seqs and counts; --expect-messages compares message text too. Each trace \
                is replayed with the options its expected report records (--explore, a --rules file); \
                --update-expected records those of the command line, or keeps the recorded ones when it gives \
                none. With a folder, an expected report whose trace is gone fails (exit 1), and so does, with \
                exit 2, a file that is not a trace, a trace without an expected report, or two traces with one \
                (x.jsonl and x.lmdb).

                Findings are located at the file line of their event in a .jsonl trace \
                (trace.jsonl:18: … (seq 13)) and at their seq in a .lmdb trace (trace.lmdb: seq 13:).

                Baselines (spec/baseline.md), as SwiftLint's: --write-baseline FILE records the identity \
                (rule and subject) of every finding of the run, sorted, one a line, and leaves the report \
                as it is. --baseline FILE reports only the findings whose identity is not in it (new), and \
                only they fail --assert; the text report then says how many the baseline hid, and lists its \
                entries that no trace of the run has (absent). SARIF keeps every finding, with \
                baselineState new or unchanged, plus a result for each absent entry.

                Exit status: 0; 1 when --assert finds an error (or a warning with --strict; with --baseline, \
                one not in it) or a trace \
                has no events, or when --expect finds a difference or an expected report without its trace; \
                2 for bad input or arguments (a --baseline file that is not one too), also when some traces \
                could not be read (the others are still reported, and --write-baseline writes nothing).

                Examples:
                  replay session.lmdb --assert
                  replay traces/ --assert --format junit > replay.xml
                  replay traces/ --assert --format github
                  replay traces/ --write-baseline lifecycle-baseline.json
                  replay traces/ --baseline lifecycle-baseline.json --assert
                  replay session.lmdb --state --at 4812
                  replay traces/lost-update.jsonl --expect traces/lost-update.expected.json
                  replay traces/ --expect traces/ --assert
                """)

        @Argument(help: "Trace files (.lmdb), JSON Lines traces (.jsonl, .ndjson) or folders of them.")
        var traces: [String]

        @Flag(help: "Exit with status 1 when an error is found.")
        var assert = false

        @Flag(help: "With --assert, fail on warnings too.")
        var strict = false

        @Flag(help: "Also run the what-if rules (kill-exposure).")
        var explore = false

        @Option(help: "The output format: text, json, junit, sarif or github (GitHub Actions annotations, and a job summary appended to $GITHUB_STEP_SUMMARY when it is set).")
        var format: ReportFormat = .text

        @OptionGroup var ruleOptions: RuleOptions<Check>
        static let rulesHelp = "A JSON file that switches rules off, re-grades them or sets thresholds, like {\"rules\":{\"phase-skip\":\"off\"},\"thresholds\":{\"slow-launch-ms\":10000}}."
        /// The `--rules` file, if any.
        var rules: String? { ruleOptions.rules }

        @Flag(help: "Print the rebuilt state (windows, phases, values, unsaved keys) instead of findings.")
        var state = false

        @Option(help: "With --state, the seq just after which to show the state (default: the end).")
        var at: UInt64?

        @OptionGroup var processOptions: ProcessOptions<Check>
        static let processHelp = "With --state, only this process's state (trace format 2; \"\" is the main app). Default: every process's."
        /// The `--process` named, if any.
        var process: String? { processOptions.process }

        @Option(help: "Compare the report with this expected-report file (with a folder or several traces: the folder holding NAME.expected.json for each trace NAME), replaying with the options it records; print a diff and exit 1 when they differ.")
        var expect: String?

        @Flag(help: "With --expect, write the current reports to the expected files instead of comparing, recording --explore and --rules when given (else keeping the options a file records).")
        var updateExpected = false

        @Flag(help: "With --expect, compare the findings' message text too (by default only what the spec makes contract: rule, severity, seq, related, and the counts).")
        var expectMessages = false

        @Option(help: "Report and --assert only the findings that are not in this baseline file (spec/baseline.md), and list its entries no finding has any more. SARIF gives every result its baselineState (new, unchanged, absent).")
        var baseline: String?

        @Option(help: "Write the identities of the findings to this baseline file (spec/baseline.md), for a later --baseline; the report is printed as usual. Nothing is written when a trace cannot be read.")
        var writeBaseline: String?

        func validate() throws {
            if traces.isEmpty { throw ValidationError("Name at least one trace, for example: replay session.lmdb --assert") }
            if at != nil && !state { throw ValidationError("--at goes with --state: replay TRACE --state --at SEQ") }
            if process != nil && !state { throw ValidationError("--process goes with --state: replay TRACE --state --process NAME") }
            if state && format != .text && format != .json { throw ValidationError("--state prints text or json; use --format text or --format json") }
            if updateExpected && expect == nil { throw ValidationError("--update-expected needs --expect FILE to know where to write") }
            if expectMessages && expect == nil { throw ValidationError("--expect-messages goes with --expect FILE: replay TRACE --expect TRACE.expected.json --expect-messages") }
            if expect != nil && format != .text {
                throw ValidationError("--expect prints a diff as text; leave out --format \(format.rawValue) (replay the traces once more without --expect for that format)")
            }
            if expect != nil && state { throw ValidationError("--expect compares findings, --state prints the state: give one of them") }
            if state && traces.count != 1 { throw ValidationError("--state takes exactly one trace") }
            if (baseline != nil || writeBaseline != nil) && (state || expect != nil) {
                throw ValidationError("--baseline and --write-baseline go with a report of findings, not with --\(state ? "state" : "expect")")
            }
            if let baseline, baseline == writeBaseline {
                throw ValidationError("--write-baseline would replace the --baseline it compares with; write the new baseline to another file")
            }
            if writeBaseline == "-" {
                throw ValidationError("--write-baseline needs a file name: the report goes to standard output (replay traces/ --write-baseline lifecycle-baseline.json)")
            }
            if strict && !assert && format != .junit {
                throw ValidationError("--strict goes with --assert (it makes warnings fail the assertion): replay TRACE --assert --strict")
            }
        }

        func run() throws {
            var configuration = try ruleOptions.configuration()
            configuration.explore = explore

            if state {
                if Self.isFolder(traces[0], FileManager.default) == true {
                    // Not "name a .lmdb file": a JSON Lines trace shows its state as well (issue 30: 12).
                    throw LifecycleLogError(.invalidArgument,
                        "is a folder; --state shows the state of one trace: name a trace in it (a .lmdb trace file or a .jsonl JSON Lines trace)",
                        path: traces[0])
                }
                warnAboutTornRecords([traces[0]])
                let states = try Replayer.states(of: traces[0], at: at, process: process)
                Output.standardOutput.write(format == .json ? LifecycleState.json(states) : LifecycleState.table(states))
                return
            }
            if let expect {
                try compareWithExpected(expect)
                return
            }
            let paths = try Self.expand(traces, notTraces: [rules, baseline, writeBaseline].compactMap { $0 })
            warnAboutTornRecords(paths)
            if baseline != nil || writeBaseline != nil {
                return try runWithBaseline(paths, configuration: configuration)
            }
            if paths.count == 1 {
                // One trace: stream the report, in memory that does not grow with the trace.
                let report: ReplayReport
                var summary = GitHubStepSummary()
                do {
                    report = try Self.stream(paths[0], configuration: configuration, format: format, strict: strict, summary: &summary)
                } catch let error as LifecycleLogError where format != .text && format != .json {
                    // CI formats record the unreadable trace (a JUnit error, a SARIF
                    // notification, a GitHub annotation) rather than leave an empty file.
                    try writeReport([], unreadable: [error], configuration: configuration)
                    return
                }
                if format == .github {
                    // After the report, outside the catch above: a summary that cannot be written is
                    // its own error, not an unreadable trace.
                    try Output.appendStepSummary(summary.markdown())
                }
                try assertion([report])
                return
            }
            let results = try Self.replayAll(paths, configuration: configuration)
            // A trace that cannot be read does not hide the others' report: it is
            // recorded in it (JSON errors, SARIF notifications, …), and exits 2.
            var reports: [ReplayReport] = []
            var unreadable: [LifecycleLogError] = []
            for result in results {
                switch result {
                case .success(let report): reports.append(report)
                case .failure(let error): unreadable.append(error)
                }
            }
            try writeReport(reports, unreadable: unreadable, configuration: configuration)
        }

        /// Writes the report of `reports` with `unreadable` recorded in it, then
        /// exits 2 when some trace could not be read, or applies --assert.
        func writeReport(_ reports: [ReplayReport], unreadable: [LifecycleLogError], configuration: RuleConfiguration,
                                 trailer: String = "") throws {
            let rendered = ReportRenderer.render(reports, format: format, strict: strict, configuration: configuration, unreadable: unreadable)
            Output.standardOutput.write(format == .text && Terminal.colors(1) ? Terminal.colorize(rendered) : rendered)
            Output.standardOutput.write(trailer)
            if format == .github {
                var summary = GitHubStepSummary()
                for report in reports {
                    summary.add(report)
                    report.findings.forEach { summary.add($0, trace: report.trace) }
                }
                unreadable.forEach { summary.add(unreadable: $0) }
                try Output.appendStepSummary(summary.markdown())
            }
            if !unreadable.isEmpty {
                try Output.standardOutput.flush()
                for error in unreadable { Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n") }
                throw ExitCode(2)
            }
            try assertion(reports)
        }

        /// With --assert, exits 1 when a report fails it, saying why for empty traces.
        func assertion(_ reports: [ReplayReport]) throws {
            guard assert else { return }
            for report in reports where report.events == 0 {
                Output.standardError.write("replay: assertion failed: \(report.emptyTraceMessage)\n")
            }
            // Say which traces failed it and why: beside `--expect`, every line may say "matches"
            // (issue 30: an exit 1 that nothing explained). At most 10 traces are named.
            let failing = reports.filter { $0.events > 0 && $0.fails(strict: strict) }
            for report in failing.prefix(10) {
                // The counts, not the findings: a streamed report (one trace) keeps its counts only.
                let count = report.errors + (strict ? report.warnings : 0)
                let failed = report.findings.filter { $0.severity == .error || (strict && $0.severity == .warning) }
                let first = failed.first.map { " (the first at seq \($0.seq): [\($0.rule.rawValue)])" } ?? ""
                let what = strict ? "error or warning finding" : "error finding"
                Output.standardError.write("replay: assertion failed: \(VisibleText.escape(report.trace)): \(count) \(what)\(count == 1 ? "" : "s")\(first)\n")
            }
            if failing.count > 10 { Output.standardError.write("replay: assertion failed: and \(plural(failing.count - 10, "more trace"))\n") }
            if reports.contains(where: { $0.fails(strict: strict) }) { throw ExitCode(1) }
        }

        /// Replays one trace, rendering its report as findings become final into
        /// a buffer that spills to disk (so memory does not grow with the trace),
        /// and writes it out only when the whole trace replayed: a trace that
        /// turns out malformed halfway writes nothing but its error.
        static func stream(_ path: String, configuration: RuleConfiguration, format: ReportFormat, strict: Bool,
                           summary: inout GitHubStepSummary) throws -> ReplayReport {
            let out = Output.standardOutput
            let body = SpillBuffer()
            let total = Replayer.isJSONLines(path) ? nil : (try? Trace(path: path).eventCount).map(UInt64.init)
            return try Terminal.withProgress("replaying \(path)", total: total) { progress in
                let tick: (UInt64) -> Void = { progress.update($0) }
                var first = true
                switch format {
                case .text:
                    let color = Terminal.colors(1)
                    let report = try Replayer.replay(path, configuration: configuration, customRules: AppRules.current, progress: tick) { f in
                        if color {
                            try body.append(Terminal.colorize(ReplayReport.textLine(f, trace: path)))
                        } else {
                            try body.append { ReplayReport.appendTextLine(f, trace: path, to: &$0) }
                        }
                    }
                    try body.drain(into: out)
                    out.write(report.textSummary)
                    return report
                case .json:
                    let report = try Replayer.replay(path, configuration: configuration, customRules: AppRules.current, progress: tick) { f in
                        try body.append((first ? "" : ",") + ReplayReport.jsonFinding(f))
                        first = false
                    }
                    out.write(report.jsonPrefix(pretty: false, traceName: nil))
                    try body.drain(into: out)
                    out.write(report.jsonSuffix(pretty: false, anyFindings: !first))
                    return report
                case .sarif:
                    var fingerprints = FindingFingerprints()
                    let report = try Replayer.replay(path, configuration: configuration, customRules: AppRules.current, progress: tick) { f in
                        try body.append((first ? "" : ",") + ReportRenderer.sarifResult(f, trace: path, fingerprints: &fingerprints))
                        first = false
                    }
                    out.write(ReportRenderer.sarifPrefix)
                    try body.drain(into: out)
                    out.write(ReportRenderer.sarifSuffix())
                    return report
                case .junit:
                    var suite = ReportRenderer.JUnitSuite(trace: path, strict: strict, configuration: configuration)
                    let report = try Replayer.replay(path, configuration: configuration, customRules: AppRules.current, progress: tick) { suite.add($0) }
                    out.write(ReportRenderer.junit([suite]))
                    return report
                case .github:
                    var gathered = GitHubStepSummary()
                    let report = try Replayer.replay(path, configuration: configuration, customRules: AppRules.current, progress: tick) { f in
                        try body.append(GitHubWorkflow.annotation(f, trace: path))
                        gathered.add(f, trace: path)
                    }
                    try body.drain(into: out)
                    gathered.add(report)
                    summary = gathered  // appended by the caller, once the report is out
                    return report
                }
            }
        }

    }
}
