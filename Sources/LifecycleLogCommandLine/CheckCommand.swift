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
                TRACE is a trace file (.lmdb), a JSON Lines trace (.jsonl or .ndjson, replayed directly, nothing \
                written; a file under another name is read as what it holds) or a folder, whose traces are \
                replayed in parallel and reported together in name order.

                --expect compares each trace's report with its expected report (T.expected.json for T.jsonl: \
                with a folder, --expect names the folder that holds them, such as the traces' own) on rule, \
                severity, seq, related seqs and counts; --expect-messages compares message text too.

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

        @Option(help: "A JSON file that switches rules off, re-grades them or sets thresholds, like {\"rules\":{\"phase-skip\":\"off\"},\"thresholds\":{\"slow-launch-ms\":10000}}.")
        var rules: String?

        @Flag(help: "Print the rebuilt state (windows, phases, values, unsaved keys) instead of findings.")
        var state = false

        @Option(help: "With --state, the seq just after which to show the state (default: the end).")
        var at: UInt64?

        @Option(help: "With --state, only this process's state (trace format 2; \"\" is the main app). Default: every process's.")
        var process: String?

        @Option(help: "Compare the report with this expected-report file (with a folder or several traces: the folder holding NAME.expected.json for each trace NAME); print a diff and exit 1 when they differ.")
        var expect: String?

        @Flag(help: "With --expect, write the current reports to the expected files instead of comparing.")
        var updateExpected = false

        @Flag(help: "With --expect, compare the findings' message text too (by default only what the spec makes contract: rule, severity, seq, related, and the counts).")
        var expectMessages = false

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
            if strict && !assert && format != .junit {
                throw ValidationError("--strict goes with --assert (it makes warnings fail the assertion): replay TRACE --assert --strict")
            }
        }

        func run() throws {
            var configuration = try loadRuleConfiguration(rules)
            configuration.explore = explore

            if state {
                warnAboutTornRecords([traces[0]])
                let states = try Replayer.states(of: traces[0], at: at, process: process)
                Output.standardOutput.write(format == .json ? LifecycleState.json(states) : LifecycleState.table(states))
                return
            }
            if let expect {
                try compareWithExpected(expect, configuration: configuration)
                return
            }
            let paths = try Self.expand(traces)
            warnAboutTornRecords(paths)
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
        private func writeReport(_ reports: [ReplayReport], unreadable: [LifecycleLogError], configuration: RuleConfiguration) throws {
            let rendered = ReportRenderer.render(reports, format: format, strict: strict, configuration: configuration, unreadable: unreadable)
            Output.standardOutput.write(format == .text && Terminal.colors(1) ? Terminal.colorize(rendered) : rendered)
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
        private func assertion(_ reports: [ReplayReport]) throws {
            guard assert else { return }
            for report in reports where report.events == 0 {
                Output.standardError.write("replay: assertion failed: \(report.emptyTraceMessage)\n")
            }
            // Say which traces failed it and why: beside `--expect`, every line may say "matches"
            // (issue 30: an exit 1 that nothing explained). At most 10 traces are named.
            let failing = reports.filter { $0.events > 0 && $0.fails(strict: strict) }
            for report in failing.prefix(10) {
                let failed = report.findings.filter { $0.severity == .error || (strict && $0.severity == .warning) }
                let first = failed.first.map { " (the first at seq \($0.seq): [\($0.rule.rawValue)])" } ?? ""
                let what = strict ? "error or warning finding" : "error finding"
                Output.standardError.write("replay: assertion failed: \(VisibleText.escape(report.trace)): \(failed.count) \(what)\(failed.count == 1 ? "" : "s")\(first)\n")
            }
            if failing.count > 10 { Output.standardError.write("replay: assertion failed: and \(failing.count - 10) more traces\n") }
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
            try expandNamed(arguments).map(\.path)
        }

        /// Whether a file found in a folder is a trace: `.lmdb`, `.jsonl` or
        /// `.ndjson` (in any case), and not hidden.
        static func isTraceName(_ relative: String) -> Bool {
            let lower = relative.lowercased()
            return (lower.hasSuffix(".lmdb") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson"))
                && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
        }

        /// Like ``expand(_:)``, with each trace's name: its path inside the
        /// folder given, or its file name for a trace given itself.
        static func expandNamed(_ arguments: [String]) throws -> [(path: String, name: String)] {
            var paths: [(path: String, name: String)] = []
            let files = FileManager.default
            for argument in arguments {
                let isFolder = Self.isFolder(argument, files)
                if argument != "-" && isFolder == nil, let command = closestCommand(to: argument) {
                    throw LifecycleLogError(.io, "no such file or folder. Did you mean `replay \(command)`?", path: argument)
                }
                // A missing file is replayed like the others, and fails as unreadable:
                // in the report, not before it.
                guard isFolder == true else { paths.append((argument, argument.split(separator: "/").last.map(String.init) ?? argument)); continue }
                let base = argument.hasSuffix("/") ? argument : argument + "/"
                let found = ((try? files.subpathsOfDirectory(atPath: argument)) ?? []).filter(isTraceName).sorted()
                if found.isEmpty {
                    throw LifecycleLogError(.io, "the folder holds no .lmdb, .jsonl or .ndjson traces", path: argument)
                }
                paths += found.map { (base + $0, $0) }
            }
            return paths
        }

        /// The expected-report file of a trace named `name` in the folder `folder`:
        /// the name without its extension, then `.expected.json`.
        static func expectedPath(in folder: String, for name: String) -> String {
            let fileStart = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
            var stem = Substring(name)
            if let dot = name[fileStart...].lastIndex(of: "."), dot != fileStart { stem = name[..<dot] }
            return (folder.hasSuffix("/") ? folder : folder + "/") + stem + ".expected.json"
        }

        /// `--expect`: compares each trace's report with its expected report (or
        /// writes them, with --update-expected). One trace given as a file and a
        /// FILE that is not a folder: that file. Otherwise FILE is a folder holding
        /// `NAME.expected.json` for each trace `NAME.jsonl` (its path inside the
        /// folder given), so `replay traces/ --expect traces/` uses the files
        /// beside the traces. A difference exits 1; a trace that cannot be read,
        /// or has no expected report, exits 2 after the others are compared.
        private func compareWithExpected(_ expect: String, configuration: RuleConfiguration) throws {
            let files = FileManager.default
            let entries = try Self.expandNamed(traces)
            let oneFile = traces.count == 1 && Self.isFolder(traces[0], files) != true
            let intoFolder = !oneFile || expect.hasSuffix("/") || Self.isFolder(expect, files) == true
            if intoFolder && Self.isFolder(expect, files) != true {
                throw LifecycleLogError(.invalidArgument, oneFile
                    ? "no such folder for the expected reports; create it, or name a file (without a trailing /)"
                    : "with several traces, --expect names a folder of expected reports, one NAME.expected.json for each trace NAME.jsonl "
                    + "(replay traces/ --expect traces/ uses the files beside the traces); create the folder, or give one trace",
                    path: expect)
            }
            let targets = entries.map { intoFolder ? Self.expectedPath(in: expect, for: $0.name) : expect }
            let inputs = entries.map(\.path) + (rules.map { [$0] } ?? [])
            if updateExpected {
                var seen: [String: String] = [:]
                for (entry, target) in zip(entries, targets) {
                    if let other = seen.updateValue(entry.path, forKey: target) {
                        throw LifecycleLogError(.invalidArgument,
                            "\(other) and \(entry.path) would both write this expected report; update them one at a time", path: target)
                    }
                    try OutputFile.checkNotInput(target, inputs: inputs)
                    try OutputFile.checkNotSpecial(target, argument: "--expect")
                }
            }
            warnAboutTornRecords(entries.map(\.path))
            let results = try Self.replayAll(entries.map(\.path), configuration: configuration)
            var reports: [ReplayReport] = []
            var problems: [LifecycleLogError] = []
            var differing = 0, matching = 0
            for (result, target) in zip(results, targets) {
                let report: ReplayReport
                switch result {
                case .failure(let error): problems.append(error); continue
                case .success(let success): report = success
                }
                reports.append(report)
                if updateExpected {
                    // The --expect folder exists; its subfolders, in the traces' layout, are made as needed.
                    let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
                    if intoFolder, !folder.isEmpty { try? files.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                    let out = try Output.to(path: target)
                    out.write(ExpectedReport.render(report))
                    try out.commit()
                    Output.standardError.write("wrote \(target)\n")
                    continue
                }
                guard let expectedText = try? String(contentsOfFile: target, encoding: .utf8) else {
                    let exists = files.fileExists(atPath: target)
                    problems.append(LifecycleLogError(.io, exists
                        ? "cannot read the expected report of \(report.trace); check its permissions, or write it again with --update-expected"
                        : "there is no expected report for \(report.trace); create it with: replay \(report.trace) --expect \(target) --update-expected",
                        path: target))
                    continue
                }
                if let diff = try ExpectedReport.difference(report, expectedText: expectedText, expectedPath: target, messages: expectMessages) {
                    Output.standardOutput.write(diff)
                    differing += 1
                } else {
                    Output.standardOutput.write("\(report.trace): matches \(target) (\(report.errors) errors, \(report.warnings) warnings)\n")
                    matching += 1
                }
            }
            if !updateExpected && entries.count > 1 {
                let compared = differing + matching
                Output.standardOutput.write(differing == 0
                    ? "expect: \(compared) trace\(compared == 1 ? "" : "s") match\(compared == 1 ? "es its" : " their") expected report\(compared == 1 ? "" : "s")"
                    : "expect: \(differing) of \(compared) traces differ from their expected reports")
                Output.standardOutput.write(problems.isEmpty ? "\n" : " (and \(problems.count) could not be compared)\n")
            }
            if !problems.isEmpty {
                try Output.standardOutput.flush()
                for error in problems { Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n") }
                throw ExitCode(2)
            }
            if differing > 0 { throw ExitCode(1) }
            try assertion(reports)
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
                        let line = ReplayReport.textLine(f, trace: path)
                        try body.append(color ? Terminal.colorize(line) : line)
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
                    result = .success(try Replayer.replay(paths[i], configuration: configuration, customRules: AppRules.current, progress: single ? { progress.update($0) } : nil))
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
    return try RuleConfiguration(json: text, path: path, appRules: AppRules.current)
}
