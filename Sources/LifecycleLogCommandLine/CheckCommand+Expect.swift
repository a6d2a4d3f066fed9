import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
internal import LifecycleLogPlatform

/// `--expect`: the reports against their expected files.
extension Replay.Check {
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
    func compareWithExpected(_ expect: String) throws {
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
}
