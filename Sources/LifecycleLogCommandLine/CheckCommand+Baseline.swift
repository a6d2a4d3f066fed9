import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
internal import LifecycleLogPlatform

/// `--baseline` and `--write-baseline` (spec/baseline.md).
extension Replay.Check {
    /// `--baseline` and `--write-baseline`: every trace replayed (one too), its findings kept in
    /// memory (bounded by their number), then the baseline written (unless a trace could not be
    /// read), and the report of the findings the baseline does not hold, with what it holds that
    /// no trace has any more.
    func runWithBaseline(_ paths: [String], configuration: RuleConfiguration) throws {
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
}
