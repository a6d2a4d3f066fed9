import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog

extension ReportFormat: ExpressibleByArgument {}

extension Replay {
    /// `replay TRACE… [--assert] [--strict] [--explore] [--format …] [--rules FILE]`
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Replay traces and report what the rules find (the default command).",
            discussion: """
                TRACE is a trace file (.lmdb), a JSON Lines trace (.jsonl, replayed directly, nothing \
                written) or a folder, whose traces are replayed in parallel and reported together in name order.

                Findings are located at the file line of their event in a .jsonl trace \
                (trace.jsonl:18: … (seq 13)) and at their seq in a .lmdb trace (trace.lmdb: seq 13:).

                Exit status: 0; 1 when --assert finds an error (or a warning with --strict) or a trace \
                has no events, or when --expect finds a difference; 2 for bad input or arguments, also \
                when some traces could not be read (the others are still reported).

                Examples:
                  replay session.lmdb --assert
                  replay traces/ --assert --format junit > replay.xml
                  replay traces/ --assert --format github
                  replay session.lmdb --state --at 4812
                  replay traces/lost-update.jsonl --expect traces/lost-update.expected.json
                """)

        @Argument(help: "Trace files (.lmdb), JSON Lines traces (.jsonl) or folders of them.")
        var traces: [String]

        @Flag(help: "Exit with status 1 when an error is found.")
        var assert = false

        @Flag(help: "With --assert, fail on warnings too.")
        var strict = false

        @Flag(help: "Also run the what-if rules (kill-exposure).")
        var explore = false

        @Option(help: "The output format: text, json, junit, sarif or github (GitHub Actions annotations, and a job summary appended to $GITHUB_STEP_SUMMARY when it is set).")
        var format: ReportFormat = .text

        @Option(help: "A JSON file that switches rules off, re-grades them or sets thresholds, like {\"rules\":{\"phase-skip\":\"off\"},\"thresholds\":{\"slow-launch-ms\":10000}}.")
        var rules: String?

        @Flag(help: "Print the rebuilt state (windows, phases, values, unsaved keys) instead of findings.")
        var state = false

        @Option(help: "With --state, the seq just after which to show the state (default: the end).")
        var at: UInt64?

        @Option(help: "With --state, only this process's state (trace format 2; \"\" is the main app). Default: every process's.")
        var process: String?

        @Option(help: "Compare the report with this expected-report file; print a diff and exit 1 when they differ.")
        var expect: String?

        @Flag(help: "With --expect, write the current report to the expected file instead of comparing.")
        var updateExpected = false

        func validate() throws {
            if traces.isEmpty { throw ValidationError("Name at least one trace, for example: replay session.lmdb --assert") }
            if at != nil && !state { throw ValidationError("--at goes with --state: replay TRACE --state --at SEQ") }
            if process != nil && !state { throw ValidationError("--process goes with --state: replay TRACE --state --process NAME") }
            if state && format != .text && format != .json { throw ValidationError("--state prints text or json; use --format text or --format json") }
            if updateExpected && expect == nil { throw ValidationError("--update-expected needs --expect FILE to know where to write") }
            if (expect != nil || state) && traces.count != 1 { throw ValidationError("--expect and --state take exactly one trace") }
        }

        func run() throws {
            var configuration = try loadRuleConfiguration(rules)
            configuration.explore = explore

            if state {
                let states = try Replayer.states(of: traces[0], at: at, process: process)
                Output.standardOutput.write(format == .json ? LifecycleState.json(states) : LifecycleState.table(states))
                return
            }
            let paths = try Self.expand(traces)
            if paths.count == 1 && expect == nil {
                // One trace: stream the report, in memory that does not grow with the trace.
                let report = try Self.stream(paths[0], configuration: configuration, format: format, strict: strict)
                try assertion([report])
                return
            }
            let results = try Self.replayAll(paths, configuration: configuration)

            if let expect {
                // `!`: validate() allows --expect with exactly one trace.
                let report = try results.first!.get()
                if updateExpected {
                    try OutputFile.checkNotInput(expect, inputs: traces + (rules.map { [$0] } ?? []))
                    let out = try Output.to(path: expect)
                    out.write(ExpectedReport.render(report))
                    try out.commit()
                    Output.standardError.write("wrote \(expect)\n")
                    return
                }
                guard let expectedText = try? String(contentsOfFile: expect, encoding: .utf8) else {
                    throw LifecycleLogError(.io, "cannot read the expected report; create it with --update-expected", path: expect)
                }
                if let diff = try ExpectedReport.difference(report, expectedText: expectedText, expectedPath: expect) {
                    Output.standardOutput.write(diff)
                    throw ExitCode(1)
                }
                Output.standardOutput.write("\(report.trace): matches \(expect) (\(report.errors) errors, \(report.warnings) warnings)\n")
                return
            }
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
            let rendered = ReportRenderer.render(reports, format: format, strict: strict, configuration: configuration, unreadable: unreadable)
            Output.standardOutput.write(format == .text && Terminal.colors(1) ? Terminal.colorize(rendered) : rendered)
            if format == .github {
                var summary = GitHubStepSummary()
                for report in reports {
                    summary.add(report)
                    report.findings.forEach { summary.add($0, trace: report.trace) }
                }
                unreadable.forEach { summary.add(unreadable: $0) }
                Output.appendStepSummary(summary.markdown())
            }
            if !unreadable.isEmpty {
                try Output.standardOutput.flush()
                for error in unreadable { Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n") }
                throw ExitCode(2)
            }
            try assertion(reports)
        }

        /// With --assert, exits 1 when a report fails it, saying why for empty traces.
        private func assertion(_ reports: [ReplayReport]) throws {
            guard assert else { return }
            for report in reports where report.events == 0 {
                Output.standardError.write("replay: assertion failed: \(report.emptyTraceMessage)\n")
            }
            if reports.contains(where: { $0.fails(strict: strict) }) { throw ExitCode(1) }
        }

        /// Whether `path` is a folder (`true`), another file (`false`), or missing (`nil`).
        static func isFolder(_ path: String, _ files: FileManager) -> Bool? {
            #if canImport(FoundationEssentials)
            var folder = false
            #else
            var folder: ObjCBool = false
            #endif
            guard files.fileExists(atPath: path, isDirectory: &folder) else { return nil }
            #if canImport(FoundationEssentials)
            return folder
            #else
            return folder.boolValue
            #endif
        }

        /// Files as given; folders become the traces inside them (recursively), sorted by path.
        static func expand(_ arguments: [String]) throws -> [String] {
            var paths: [String] = []
            let files = FileManager.default
            for argument in arguments {
                let isFolder = Self.isFolder(argument, files)
                guard argument == "-" || isFolder != nil else {
                    if let command = closestCommand(to: argument) {
                        throw LifecycleLogError(.io, "no such file or folder. Did you mean `replay \(command)`?", path: argument)
                    }
                    throw LifecycleLogError(.io, "no such file or folder; check the path", path: argument)
                }
                guard isFolder == true else { paths.append(argument); continue }
                let base = argument.hasSuffix("/") ? argument : argument + "/"
                let found = ((try? files.subpathsOfDirectory(atPath: argument)) ?? [])
                    .filter { ($0.hasSuffix(".lmdb") || $0.hasSuffix(".jsonl")) && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                    .sorted()
                if found.isEmpty {
                    throw LifecycleLogError(.io, "the folder holds no .lmdb or .jsonl traces", path: argument)
                }
                paths += found.map { base + $0 }
            }
            return paths
        }

        /// Replays one trace, rendering its report as findings become final into
        /// a buffer that spills to disk (so memory does not grow with the trace),
        /// and writes it out only when the whole trace replayed: a trace that
        /// turns out malformed halfway writes nothing but its error.
        static func stream(_ path: String, configuration: RuleConfiguration, format: ReportFormat, strict: Bool) throws -> ReplayReport {
            let out = Output.standardOutput
            let body = SpillBuffer()
            let total = Replayer.isJSONLines(path) ? nil : (try? Trace(path: path).eventCount).map(UInt64.init)
            return try Terminal.withProgress("replaying \(path)", total: total) { progress in
                let tick: (UInt64) -> Void = { progress.update($0) }
                var first = true
                switch format {
                case .text:
                    let color = Terminal.colors(1)
                    let report = try Replayer.replay(path, configuration: configuration, progress: tick) { f in
                        let line = ReplayReport.textLine(f, trace: path)
                        try body.append(color ? Terminal.colorize(line) : line)
                    }
                    try body.drain(into: out)
                    out.write(report.textSummary)
                    return report
                case .json:
                    let report = try Replayer.replay(path, configuration: configuration, progress: tick) { f in
                        try body.append((first ? "" : ",") + ReplayReport.jsonFinding(f))
                        first = false
                    }
                    out.write(report.jsonPrefix(pretty: false, traceName: nil))
                    try body.drain(into: out)
                    out.write(report.jsonSuffix(pretty: false, anyFindings: !first))
                    return report
                case .sarif:
                    var fingerprints = FindingFingerprints()
                    let report = try Replayer.replay(path, configuration: configuration, progress: tick) { f in
                        try body.append((first ? "" : ",") + ReportRenderer.sarifResult(f, trace: path, fingerprints: &fingerprints))
                        first = false
                    }
                    out.write(ReportRenderer.sarifPrefix)
                    try body.drain(into: out)
                    out.write(ReportRenderer.sarifSuffix())
                    return report
                case .junit:
                    var suite = ReportRenderer.JUnitSuite(trace: path, strict: strict, configuration: configuration)
                    let report = try Replayer.replay(path, configuration: configuration, progress: tick) { suite.add($0) }
                    out.write(ReportRenderer.junit([suite]))
                    return report
                case .github:
                    var summary = GitHubStepSummary()
                    let report = try Replayer.replay(path, configuration: configuration, progress: tick) { f in
                        try body.append(GitHubWorkflow.annotation(f, trace: path))
                        summary.add(f, trace: path)
                    }
                    try body.drain(into: out)
                    summary.add(report)
                    Output.appendStepSummary(summary.markdown())
                    return report
                }
            }
        }

        /// A subcommand whose name is within two edits of `word`, for "did you mean".
        static func closestCommand(to word: String) -> String? {
            let names = Replay.configuration.subcommands.compactMap { $0.configuration.commandName ?? String(describing: $0).lowercased() }
            return names.map { ($0, editDistance(Array(word), Array($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
        }

        static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var current = [i + 1]
                for (j, cb) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }

        /// Replays `paths` on all cores; results keep the order of `paths`, and a
        /// trace that cannot be read is its error, not the end of the others.
        static func replayAll(_ paths: [String], configuration: RuleConfiguration) throws -> [Result<ReplayReport, LifecycleLogError>] {
            let single = paths.count == 1
            let total = single ? (Replayer.isJSONLines(paths[0]) ? nil : (try? Trace(path: paths[0]).eventCount).map(UInt64.init))
                : UInt64(paths.count)
            return try Terminal.withProgress(single ? "replaying \(paths[0])" : "replaying \(paths.count) traces", total: total) { progress in
                replayAll(paths, configuration: configuration, progress: progress, single: single)
            }
        }

        private static func replayAll(_ paths: [String], configuration: RuleConfiguration, progress: Terminal.Progress,
                                      single: Bool) -> [Result<ReplayReport, LifecycleLogError>] {
            let results = Locked<[Result<ReplayReport, LifecycleLogError>?]>(Array(repeating: nil, count: paths.count))
            DispatchQueue.concurrentPerform(iterations: paths.count) { i in
                let result: Result<ReplayReport, LifecycleLogError>
                do {
                    result = .success(try Replayer.replay(paths[i], configuration: configuration, progress: single ? { progress.update($0) } : nil))
                } catch let error as LifecycleLogError {
                    result = .failure(error)
                } catch {
                    result = .failure(LifecycleLogError(.io, "\(error)", path: paths[i]))
                }
                let done = results.withLock { all -> Int in
                    all[i] = result
                    return all.count { $0 != nil }
                }
                if !single { progress.update(UInt64(done)) }
            }
            // `!`: concurrentPerform has run every iteration.
            return results.withLock { $0 }.map { $0! }
        }
    }
}

/// The rule configuration of a `--rules FILE` option (the catalogue's defaults without one).
func loadRuleConfiguration(_ path: String?) throws -> RuleConfiguration {
    guard let path else { return RuleConfiguration() }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw LifecycleLogError(.io, "cannot read the rules file; check the path", path: path)
    }
    return try RuleConfiguration(json: text, path: path)
}
