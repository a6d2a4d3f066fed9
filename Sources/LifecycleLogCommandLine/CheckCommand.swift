import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

        @Option(help: "A JSON file that switches rules off, re-grades them or sets thresholds, like {\"rules\":{\"phase-skip\":\"off\"},\"thresholds\":{\"slow-launch-ms\":10000}}.")
        var rules: String?

        @Flag(help: "Print the rebuilt state (windows, phases, values, unsaved keys) instead of findings.")
        var state = false

        @Option(help: "With --state, the seq just after which to show the state (default: the end).")
        var at: UInt64?

        @Option(help: "With --state, only this process's state (trace format 2; \"\" is the main app). Default: every process's.")
        var process: String?

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
            var configuration = try loadRuleConfiguration(rules)
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

        /// `--baseline` and `--write-baseline`: every trace replayed (one too), its findings kept in
        /// memory (bounded by their number), then the baseline written (unless a trace could not be
        /// read), and the report of the findings the baseline does not hold, with what it holds that
        /// no trace has any more.
        private func runWithBaseline(_ paths: [String], configuration: RuleConfiguration) throws {
            let accepted = try baseline.map { path in try FindingBaseline.load(path, text: Self.readText(path)) }
            if let writeBaseline {
                // The --rules and --baseline files are inputs too (by device and inode: ./b.json is b.json).
                try OutputFile.check(writeBaseline, writes: .json, command: "replay --write-baseline",
                                     inputs: paths + [rules, baseline].compactMap { $0 }, force: false,
                                     argument: "--write-baseline")
            }
            var reports: [ReplayReport] = []
            var unreadable: [LifecycleLogError] = []
            for result in try Self.replayAll(paths, configuration: configuration) {
                switch result {
                case .success(let report): reports.append(report)
                case .failure(let error): unreadable.append(error)
                }
            }
            if let writeBaseline {
                if unreadable.isEmpty {
                    let out = try Output.to(path: writeBaseline)
                    out.write(FindingBaseline(reports: reports).json())
                    try out.commit()
                } else {
                    // Without their findings, the next run would call them all new.
                    Output.standardError.write("replay: error: \(VisibleText.escape(writeBaseline)): the baseline was not written: "
                        + "\(plural(unreadable.count, "trace")) could not be read (below)\n")
                }
            }
            guard let accepted else { return try writeReport(reports, unreadable: unreadable, configuration: configuration) }
            var seen: [String] = []
            let fresh = reports.map { report -> ReplayReport in
                let new = report.findings.filter { f in
                    let fingerprint = FindingBaseline.fingerprint(f)
                    seen.append(fingerprint)
                    return accepted.state(of: fingerprint) == .new
                }
                return ReplayReport(trace: report.trace, events: report.events, runs: report.runs, findings: new)
            }
            let unchanged = reports.reduce(0) { $0 + $1.findings.count } - fresh.reduce(0) { $0 + $1.findings.count }
            if format == .sarif {
                Output.standardOutput.write(ReportRenderer.sarif(reports, baseline: accepted, unreadable: unreadable))
                if !unreadable.isEmpty {
                    try Output.standardOutput.flush()
                    for error in unreadable { Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n") }
                    throw ExitCode(2)
                }
                return try assertion(fresh)
            }
            // The other formats report the new findings only; text says what the baseline hid.
            let note = FindingBaseline.textNote(path: baseline ?? "", hidden: plural(unchanged, "finding"),
                                                absent: accepted.compare(seen: seen).absent)
            try writeReport(fresh, unreadable: unreadable, configuration: configuration, trailer: format == .text ? note : "")
        }

        /// The text of a file the command reads (a baseline), or an error naming it.
        static func readText(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LifecycleLogError(.io, "cannot be read (missing, or not a readable file); write a baseline with replay TRACES --write-baseline FILE", path: path)
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Writes the report of `reports` with `unreadable` recorded in it, then
        /// exits 2 when some trace could not be read, or applies --assert.
        private func writeReport(_ reports: [ReplayReport], unreadable: [LifecycleLogError], configuration: RuleConfiguration,
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
            if failing.count > 10 { Output.standardError.write("replay: assertion failed: and \(plural(failing.count - 10, "more trace"))\n") }
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

        /// Files as given; folders become the traces inside them (recursively), sorted by path
        /// (``TraceScan``). A file of a folder that is not a trace is named in a warning; a folder
        /// without any trace is an error.
        static func expand(_ arguments: [String], notTraces: [String] = []) throws -> [String] {
            let scan = try TraceScan(arguments, notTraces: notTraces)
            for skipped in scan.skipped { Output.standardError.write("warning: \(TraceScan.message(skipped))\n") }
            if let empty = scan.emptyFolders.first { throw Self.noTraces(in: empty) }
            return scan.entries.map(\.path)
        }

        /// The error for a folder given that holds no trace.
        static func noTraces(in folder: String) -> LifecycleLogError {
            LifecycleLogError(.io, "the folder holds no traces (.lmdb, .jsonl or .ndjson files, or files of other names that hold one)", path: folder)
        }

        /// Whether a file found in a folder is a trace by its name: `.lmdb`, `.jsonl` or
        /// `.ndjson` (in any case), and not hidden. (Files of other names are traces when their
        /// content says so: ``TraceScan``.)
        static func isTraceName(_ relative: String) -> Bool {
            let lower = relative.lowercased()
            return (lower.hasSuffix(".lmdb") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson"))
                && !TraceScan.isHidden(relative)
        }

        /// The expected-report file of a trace named `name` in the folder `folder`:
        /// the name without its extension, then `.expected.json`.
        static func expectedPath(in folder: String, for name: String) -> String {
            let fileStart = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
            var stem = Substring(name)
            if let dot = name[fileStart...].lastIndex(of: "."), dot != fileStart { stem = name[..<dot] }
            return (folder.hasSuffix("/") ? folder : folder + "/") + stem + ".expected.json"
        }

        /// An expected-report file as `--expect` finds it.
        enum ExpectedFile {
            /// There is none.
            case missing
            /// It exists but cannot be read (why, as a sentence).
            case unreadable(String)
            /// It is not an expected report, or records options this version does not know.
            case invalid(LifecycleLogError)
            /// Its text, and the options it records.
            case present(text: String, options: ExpectedReport.Options)

            init(_ path: String) {
                var info = stat()
                guard stat(path, &info) == 0 else { self = .missing; return }
                guard (info.st_mode & S_IFMT) == S_IFREG, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    self = .unreadable((info.st_mode & S_IFMT) == S_IFREG ? "check its permissions" : "it is not a regular file")
                    return
                }
                do { self = .present(text: text, options: try ExpectedReport.options(in: text, path: path)) } catch let error as LifecycleLogError {
                    self = .invalid(error)
                } catch {
                    self = .invalid(LifecycleLogError(.invalidInput, "\(error)", path: path))
                }
            }

            /// The options it records, when it could be read.
            var options: ExpectedReport.Options? {
                if case .present(_, let options) = self { return options }
                return nil
            }
        }

        /// Every expected report (`*.expected.json`, not hidden) in `folder` and its subfolders,
        /// sorted, each as `folder/` and its path inside the folder.
        static func expectedReports(in folder: String) -> [String] {
            let base = folder.hasSuffix("/") ? folder : folder + "/"
            return ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".expected.json") && !TraceScan.isHidden($0) }
                .sorted()
                .map { base + $0 }
        }

        /// How one trace is replayed for `--expect`: with these options, recorded by its expected
        /// report (or, with --update-expected, to be recorded), and the rules file they name.
        struct ExpectPlan {
            var options: ExpectedReport.Options
            var rulesPath: String?
        }

        /// `--expect`: compares each trace's report with its expected report (or writes them, with
        /// --update-expected). One trace given as a file and a FILE that is not a folder: that
        /// file. Otherwise FILE is a folder holding `NAME.expected.json` for each trace `NAME.jsonl`
        /// (its path inside the folder given), so `replay traces/ --expect traces/` uses the files
        /// beside the traces.
        ///
        /// Each trace is replayed with the options its expected report records (`--explore`, a
        /// rules file); an option given on the command line that the report does not record is an
        /// error, not a quiet change of what is compared. --update-expected records the options of
        /// the command line, or, when it gives none, keeps those the file records.
        ///
        /// A difference exits 1, and so does an expected report whose trace is gone (when a folder
        /// of traces is given: its traces are then all there is). A trace that cannot be read, has
        /// no expected report, or a file of the folder that is not a trace, exits 2 after the
        /// others are compared; so do two traces with one expected report, before anything is.
        private func compareWithExpected(_ expect: String) throws {
            let files = FileManager.default
            let oneFile = traces.count == 1 && Self.isFolder(traces[0], files) != true
            let intoFolder = !oneFile || expect.hasSuffix("/") || Self.isFolder(expect, files) == true
            if intoFolder && Self.isFolder(expect, files) != true {
                throw LifecycleLogError(.invalidArgument, oneFile
                    ? "no such folder for the expected reports; create it, or name a file (without a trailing /)"
                    : "with several traces, --expect names a folder of expected reports, one NAME.expected.json for each trace NAME.jsonl "
                    + "(replay traces/ --expect traces/ uses the files beside the traces); create the folder, or give one trace",
                    path: expect)
            }
            // With a folder of traces, every expected report of the --expect folder must have its trace.
            let foldersGiven = traces.contains { Self.isFolder($0, files) == true }
            var loaded: [String: ExpectedFile] = [:]
            func load(_ path: String) -> ExpectedFile {
                if let file = loaded[path] { return file }
                let file = ExpectedFile(path)
                loaded[path] = file
                return file
            }
            let reportsInFolder = intoFolder && foldersGiven ? Self.expectedReports(in: expect) : []
            // The rules files these reports record are not traces, wherever they are.
            let recordedRules = reportsInFolder.compactMap { load($0).options?.rulesPath(expectedAt: $0) }
            let scan = try TraceScan(traces, notTraces: (rules.map { [$0] } ?? []) + recordedRules)
            let entries = scan.entries
            let targets = entries.map { intoFolder ? Self.expectedPath(in: expect, for: $0.name) : expect }

            // Two traces with one expected report (x.jsonl and x.lmdb side by side): which one it
            // holds would depend on the order of replay. Nothing is compared or written.
            var sharing: [String: [String]] = [:]
            for (entry, target) in zip(entries, targets) { sharing[target, default: []].append(entry.path) }
            var seen = Set<String>()
            let shared = targets.filter { sharing[$0]!.count > 1 && seen.insert($0).inserted }
            if !shared.isEmpty {
                try Output.standardOutput.flush()
                for target in shared {
                    let paths = sharing[target]!.map { VisibleText.escape($0) }
                    let both = paths.count == 2 ? "\(paths[0]) and \(paths[1])" : paths.dropLast().joined(separator: ", ") + " and \(paths.last!)"
                    Output.standardError.write("replay: error: \(VisibleText.escape(target)): \(both) would share this expected report "
                        + "(a trace's expected report is its name without the extension, then .expected.json); "
                        + "rename one of them, or keep it in another folder\n")
                }
                throw ExitCode(2)
            }
            let targetSet = Set(targets)
            let orphans = reportsInFolder.filter { !targetSet.contains($0) }
            if entries.isEmpty && orphans.isEmpty && scan.skipped.isEmpty {
                throw Self.noTraces(in: scan.emptyFolders.first ?? traces[0])
            }

            // How each trace is replayed: the options its expected report records.
            var plans: [ExpectPlan?] = []
            var problems: [LifecycleLogError] = []
            var contradictions: [(kind: Contradiction, target: String, recorded: ExpectedReport.Options)] = []
            var missing = Set<Int>()
            let commandLine = explore || rules != nil
            for (i, target) in targets.enumerated() {
                let file = load(target)
                if updateExpected {
                    let recorded = file.options ?? ExpectedReport.Options()
                    plans.append(commandLine
                        ? ExpectPlan(options: ExpectedReport.Options(explore: explore, rules: rules.map { FilePaths.relative(from: FilePaths.folder(of: target), to: $0) }),
                                     rulesPath: rules)
                        : ExpectPlan(options: recorded, rulesPath: recorded.rulesPath(expectedAt: target)))
                    continue
                }
                switch file {
                case .missing:
                    // Replayed all the same, so that a trace that cannot be read says so.
                    missing.insert(i)
                    plans.append(ExpectPlan(options: ExpectedReport.Options(explore: explore, rules: rules), rulesPath: rules))
                case .unreadable(let why):
                    problems.append(LifecycleLogError(.io, "cannot read the expected report of \(entries[i].path): \(why); or write it again with --update-expected", path: target))
                    plans.append(nil)
                case .invalid(let error):
                    problems.append(error)
                    plans.append(nil)
                case .present(_, let recorded):
                    let recordedRules = recorded.rulesPath(expectedAt: target)
                    var kind: Contradiction?
                    if explore && !recorded.explore { kind = .exploreNotRecorded }
                    if let rules, kind == nil {
                        if let recordedRules {
                            if !FileIdentity.same(rules, recordedRules) { kind = .otherRulesRecorded }
                        } else {
                            kind = .rulesNotRecorded
                        }
                    }
                    if let kind {
                        contradictions.append((kind, target, recorded))
                        plans.append(nil)
                    } else {
                        plans.append(ExpectPlan(options: recorded, rulesPath: recordedRules))
                    }
                }
            }
            problems += contradictionErrors(contradictions)

            // The rule configuration of each rules file, read once.
            var configurations: [String: RuleConfiguration] = [:]
            var unreadableRules: Set<String> = []
            for (i, plan) in plans.enumerated() {
                guard let path = plan?.rulesPath, configurations[path] == nil else { continue }
                if unreadableRules.contains(path) { plans[i] = nil; continue }
                do {
                    configurations[path] = try loadRuleConfiguration(path)
                } catch let error as LifecycleLogError {
                    unreadableRules.insert(path)
                    let recorder = plan!.rulesPath == rules ? "" : " (the rules file that \(targets[i]) records in its options)"
                    problems.append(LifecycleLogError(error.code, error.message + recorder, path: error.path, line: error.line, column: error.column))
                    plans[i] = nil
                }
            }
            for i in plans.indices where plans[i]?.rulesPath.map(unreadableRules.contains) == true { plans[i] = nil }

            if updateExpected {
                let inputs = entries.map(\.path) + Set(plans.compactMap { $0?.rulesPath }).sorted()
                for target in targets {
                    try OutputFile.checkNotInput(target, inputs: inputs)
                    try OutputFile.checkNotSpecial(target, argument: "--expect")
                }
            }
            let replayed = plans.indices.filter { plans[$0] != nil }
            warnAboutTornRecords(replayed.map { entries[$0].path })
            let results = replayed.isEmpty ? [] : try Self.replayAll(replayed.map { entries[$0].path }, configurations: replayed.map { i in
                var configuration = plans[i]!.rulesPath.flatMap { configurations[$0] } ?? RuleConfiguration()
                configuration.explore = plans[i]!.options.explore
                return configuration
            })
            var reports: [ReplayReport] = []
            var differing = 0, matching = 0
            var missingReplayed: [(trace: String, target: String)] = []
            for (i, result) in zip(replayed, results) {
                let target = targets[i], plan = plans[i]!
                let report: ReplayReport
                switch result {
                case .failure(let error): problems.append(error); continue
                case .success(let success): report = success
                }
                reports.append(report)
                // The options as a command line would give them (the rules file's path from here).
                let words = (plan.options.explore ? ["--explore"] : []) + (plan.rulesPath.map { ["--rules", FilePaths.shellWord($0)] } ?? [])
                let with = words.isEmpty ? "" : " with " + words.joined(separator: " ")
                if updateExpected {
                    // The --expect folder exists; its subfolders, in the traces' layout, are made as needed.
                    let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
                    if intoFolder, !folder.isEmpty { try? files.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                    let out = try Output.to(path: target)
                    out.write(ExpectedReport.render(report, options: plan.options))
                    try out.commit()
                    Output.standardError.write("wrote \(target)\(with)\n")
                    continue
                }
                guard case .present(let expectedText, _) = load(target) else {
                    missingReplayed.append((report.trace, target))
                    continue
                }
                if let diff = try ExpectedReport.difference(report, expectedText: expectedText, expectedPath: target, messages: expectMessages) {
                    if !plan.options.isEmpty { Output.standardOutput.write("\(report.trace): replayed\(with), as \(target) records\n") }
                    Output.standardOutput.write(diff)
                    differing += 1
                } else {
                    Output.standardOutput.write("\(report.trace): matches \(target) (\(plural(report.errors, "error")), \(plural(report.warnings, "warning")))"
                        + (plan.options.isEmpty ? "\n" : "; replayed\(with), as it records\n"))
                    matching += 1
                }
            }
            // Files of the folders that are not traces: the gate cannot vouch for them.
            for skipped in scan.skipped {
                if updateExpected {
                    Output.standardError.write("warning: \(TraceScan.message(skipped))\n")
                } else {
                    problems.append(LifecycleLogError(.invalidInput,
                        "\(skipped.reason), so --expect cannot compare it with an expected report; "
                        + "move it out of the folder of traces, or hide it (a name starting with .)", path: skipped.path))
                }
            }
            // Expected reports whose trace is gone: a failed expectation, never a pass.
            let skippedTargets = Dictionary(scan.skipped.map { (Self.expectedPath(in: expect, for: $0.name), $0.path) }, uniquingKeysWith: { a, _ in a })
            for orphan in orphans {
                let name = String(orphan.dropFirst((expect.hasSuffix("/") ? expect : expect + "/").count).dropLast(".expected.json".count))
                let beside = skippedTargets[orphan].map { "; \(VisibleText.escape($0)) has its name but is not a trace" } ?? ""
                let line = "\(VisibleText.escape(orphan)): there is no trace for this expected report (no \(VisibleText.escape(name)).jsonl, "
                    + ".lmdb, .ndjson or other trace of that name among the traces given)\(beside); "
                    + "restore the trace, or, if it was removed on purpose, delete its expected report too\n"
                if updateExpected {
                    Output.standardError.write("warning: \(line)")
                } else {
                    Output.standardOutput.write(line)
                }
            }
            if !updateExpected {
                // No expected report at all: one command for the folder, not one per trace.
                let optionWords = (explore ? ["--explore"] : []) + (rules.map { ["--rules", $0] } ?? [])
                if missing.count > 1 && missing.count == entries.count {
                    let command = (["replay"] + traces + ["--expect", expect] + optionWords + ["--update-expected"]).map(FilePaths.shellWord).joined(separator: " ")
                    let other = orphans.isEmpty ? "" : " (the folder holds \(orphans.count) other expected report\(orphans.count == 1 ? "" : "s") that no trace has: is it the right folder?)"
                    problems.append(LifecycleLogError(.io,
                        "there is no expected report for any of the \(entries.count) traces\(other); create them with: \(command) (then read them, and commit them)",
                        path: expect))
                } else {
                    for (trace, target) in missingReplayed {
                        let command = (["replay", trace, "--expect", target] + optionWords + ["--update-expected"]).map(FilePaths.shellWord).joined(separator: " ")
                        problems.append(LifecycleLogError(.io, "there is no expected report for \(trace); create it with: \(command)", path: target))
                    }
                }
            }
            if !updateExpected && (entries.count > 1 || !orphans.isEmpty) {
                let compared = differing + matching
                let noneExpected = compared == 0 && missing.count == entries.count && !entries.isEmpty
                var summary = noneExpected
                    ? "expect: \(entries.count == 1 ? "the trace has no expected report" : "none of the \(entries.count) traces has an expected report")"
                    : differing == 0
                    ? "expect: \(compared) trace\(compared == 1 ? "" : "s") match\(compared == 1 ? "es its" : " their") expected report\(compared == 1 ? "" : "s")"
                    : compared == 1 ? "expect: the trace differs from its expected report"
                    : "expect: \(differing) of \(compared) traces differ\(differing == 1 ? "s" : "") from \(differing == 1 ? "its expected report" : "their expected reports")"
                if !orphans.isEmpty {
                    summary += "; \(orphans.count) expected report\(orphans.count == 1 ? " has" : "s have") no trace"
                }
                // With no expected report at all, the one error that says so is not a trace that could not be compared.
                let others = problems.count - (noneExpected && missing.count > 1 ? 1 : 0)
                Output.standardOutput.write(summary + (others == 0 ? "\n" : " (and \(others) could not be compared)\n"))
            }
            if !problems.isEmpty {
                try Output.standardOutput.flush()
                for error in problems { Output.standardError.write("replay: error: \(VisibleText.escape(error.description))\n") }
                throw ExitCode(2)
            }
            if differing > 0 || (!updateExpected && !orphans.isEmpty) { throw ExitCode(1) }
            try assertion(reports)
        }

        /// How the command line can contradict the options an expected report records.
        enum Contradiction: CaseIterable {
            /// --explore given; the report was made without it.
            case exploreNotRecorded
            /// --rules given; the report was made without a rules file.
            case rulesNotRecorded
            /// --rules given; the report was made with another rules file.
            case otherRulesRecorded
        }

        /// One error for each way the command line contradicts the options expected reports
        /// record, naming the first few reports.
        private func contradictionErrors(_ contradictions: [(kind: Contradiction, target: String, recorded: ExpectedReport.Options)]) -> [LifecycleLogError] {
            var errors: [LifecycleLogError] = []
            for kind in Contradiction.allCases {
                let found = contradictions.filter { $0.kind == kind }
                guard !found.isEmpty else { continue }
                let named = found.prefix(5).map { item in
                    kind == .otherRulesRecorded ? "\(item.target) (its rules: \(item.recorded.rules ?? ""))" : item.target
                }.joined(separator: ", ") + (found.count > 5 ? " and \(found.count - 5) more" : "")
                let reports = found.count == 1 ? "the expected report \(named) was" : "\(found.count) expected reports were (\(named))"
                let given = kind == .exploreNotRecorded ? "--explore" : "--rules \(rules ?? "")"
                let what = switch kind {
                case .exploreNotRecorded: "\(reports) made without --explore"
                case .rulesNotRecorded: "\(reports) made without a rules file"
                case .otherRulesRecorded: "\(reports) made with another rules file"
                }
                errors.append(LifecycleLogError(.invalidArgument,
                    "\(given) was given, but \(what). --expect replays each trace with the options its expected report records, "
                    + "so a different option would compare another report: leave \(kind == .exploreNotRecorded ? "--explore" : "--rules") out, or, if the "
                    + "expected reports should change, write them again with --update-expected \(given)",
                    path: nil))
            }
            return errors
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
            try replayAll(paths, configurations: Array(repeating: configuration, count: paths.count))
        }

        /// Like ``replayAll(_:configuration:)``, each trace with its own configuration.
        static func replayAll(_ paths: [String], configurations: [RuleConfiguration]) throws -> [Result<ReplayReport, LifecycleLogError>] {
            let single = paths.count == 1
            let total = single ? (Replayer.isJSONLines(paths[0]) ? nil : (try? Trace(path: paths[0]).eventCount).map(UInt64.init))
                : UInt64(paths.count)
            return try Terminal.withProgress(single ? "replaying \(paths[0])" : "replaying \(paths.count) traces", total: total) { progress in
                replayAll(paths, configurations: configurations, progress: progress, single: single)
            }
        }

        private static func replayAll(_ paths: [String], configurations: [RuleConfiguration], progress: Terminal.Progress,
                                      single: Bool) -> [Result<ReplayReport, LifecycleLogError>] {
            let results = Locked<[Result<ReplayReport, LifecycleLogError>?]>(Array(repeating: nil, count: paths.count))
            let finished = Locked(0)  // counted, not found by scanning `results` after each trace (quadratic in traces)
            DispatchQueue.concurrentPerform(iterations: paths.count) { i in
                let result: Result<ReplayReport, LifecycleLogError>
                do {
                    result = .success(try Replayer.replay(paths[i], configuration: configurations[i], customRules: AppRules.current, progress: single ? { progress.update($0) } : nil))
                } catch let error as LifecycleLogError {
                    result = .failure(error)
                } catch {
                    result = .failure(LifecycleLogError(.io, "\(error)", path: paths[i]))
                }
                results.withLock { $0[i] = result }
                let done = finished.withLock { count -> Int in
                    count += 1
                    return count
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
