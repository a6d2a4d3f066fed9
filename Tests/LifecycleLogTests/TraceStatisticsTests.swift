import XCTest
@testable import LifecycleLog

/// `replay stats` reads a trace file as replay does (batches decoded on a reader thread, into the
/// reducer's form) and a JSON Lines trace event by event: both must give the counts the events
/// and the replay's findings say, for every process and with `--process`.
final class TraceStatisticsTests: XCTestCase {
    /// What the trace's events say, counted from the public ``LifecycleEvent`` values on one thread, and
    /// the findings of a plain replay, each counted against the process of its event.
    private struct Expected {
        var events: UInt64 = 0
        var perKind: [String: UInt64] = [:]
        var perProcess: [String: UInt64] = [:]
        var runs: [String: Int] = [:]
        var order: [String] = []
        var first: Double?
        var last: Double = 0
        var perRule: [Rule: Int] = [:]
        var errors: [String: Int] = [:]
        var warnings: [String: Int] = [:]
    }

    private func expected(_ path: String, process only: String? = nil, explore: Bool = false) throws -> Expected {
        var e = Expected()
        var processOfSeq: [String] = []
        try Trace(path: path).forEachEvent { _, event in
            let process = event.process ?? ""
            processOfSeq.append(process)
            if e.perProcess[process] == nil { e.order.append(process) }
            e.perProcess[process, default: 0] += 1
            if case .launch = event.kind { e.runs[process, default: 0] += 1 }
            guard only.map({ $0 == process }) ?? true else { return }
            e.events += 1
            e.perKind[event.name, default: 0] += 1
            if e.first == nil { e.first = event.t }
            e.last = event.t
        }
        var configuration = RuleConfiguration()
        configuration.explore = explore
        for f in try Replayer.replay(path, configuration: configuration).findings {
            let process = processOfSeq[Int(f.seq) - 1]
            if f.severity == .error { e.errors[process, default: 0] += 1 } else { e.warnings[process, default: 0] += 1 }
            if only.map({ $0 == process }) ?? true { e.perRule[f.rule, default: 0] += 1 }
        }
        return e
    }

    private func check(_ path: String, process: String? = nil, explore: Bool = false, _ label: String) throws {
        var configuration = RuleConfiguration()
        configuration.explore = explore
        let stats = try TraceStatistics.gather(path, configuration: configuration, process: process)
        let e = try expected(path, process: process, explore: explore)
        XCTAssertEqual(stats.events, e.events, label)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: stats.eventsPerKind.map { ($0.kind, $0.count) }), e.perKind, label)
        XCTAssertEqual(stats.eventsPerKind.map(\.kind), e.perKind.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, label)
        XCTAssertEqual(stats.firstTime, e.first ?? 0, label)
        XCTAssertEqual(stats.lastTime, e.last, label)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: stats.findingsPerRule.map { ($0.rule, $0.count) }), e.perRule, label)
        let order = (e.order.contains("") ? [""] : []) + e.order.filter { !$0.isEmpty }
        XCTAssertEqual(stats.processes.map(\.process), process.map { [$0] } ?? order, label)
        for p in stats.processes {
            XCTAssertEqual(p.events, e.perProcess[p.process], "\(label): \(p.process)")
            XCTAssertEqual(p.runs, e.runs[p.process] ?? 0, "\(label): \(p.process)")
            XCTAssertLessThanOrEqual(p.cleanRuns, p.runs, "\(label): \(p.process)")
            XCTAssertEqual(p.errors, e.errors[p.process] ?? 0, "\(label): \(p.process)")
            XCTAssertEqual(p.warnings, e.warnings[p.process] ?? 0, "\(label): \(p.process)")
        }
        XCTAssertEqual(stats.runs, stats.processes.reduce(0) { $0 + $1.runs }, label)
        XCTAssertGreaterThanOrEqual(stats.windowsOpened, stats.mostWindowsOpen, label)
    }

    /// Issue 30, item 12: an empty trace has no time span and no per-kind table; a folder is
    /// refused naming both trace formats; a mistyped `dump --kind` suggests the kind in words.
    func testEmptyTraceFolderAndMistypedKindAreWordedForAPerson() throws {
        let folder = TemporaryFolder()
        let empty = folder.write("empty.jsonl", #"{"format":"lifecycle-trace","version":2}"# + "\n")
        let stats = try replay("stats", empty)
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertTrue(stats.stdout.contains("time span       none (no events)"), stats.stdout)
        XCTAssertFalse(stats.stdout.contains("EVENT"), "no table of no events: \(stats.stdout)")
        XCTAssertFalse(stats.stdout.contains("0 to 0 ms"), stats.stdout)
        let onFolder = try replay("stats", folder.path)
        XCTAssertEqual(onFolder.status, 2)
        XCTAssertTrue(onFolder.stderr.contains(".jsonl"), onFolder.stderr)
        XCTAssertFalse(onFolder.stderr.contains("name a .lmdb file"), onFolder.stderr)
        let trace = folder.write("t.jsonl", #"{"format":"lifecycle-trace","version":2}"# + "\n" + #"{"event":"launch","t":0,"platform":"iOS","scenes":[]}"# + "\n")
        let dump = try replay("dump", trace, "--kind", "wrte")
        XCTAssertEqual(dump.status, 2)
        XCTAssertTrue(dump.stderr.contains("in the trace (did you mean write?); the kinds are"), dump.stderr)
    }

    func testATraceFilesCountsAreItsEventsAndFindingsAndTheSameAsItsJSONLines() throws {
        let folder = TemporaryFolder()
        for (version, events) in [(1, 8_000), (2, 8_000), (2, 1_500)] {
            let label = "version \(version), \(events) events"
            let path = folder.file("v\(version)-\(events).lmdb")
            try TraceInterchange.generate(.init(events: events, seed: 11, windows: 6, bugRate: 300, formatVersion: version), to: path)
            var jsonl = ""
            try TraceInterchange.exportJSONLines(try Trace(path: path)) { jsonl += $0 }
            let jsonlPath = folder.file("v\(version)-\(events).jsonl")
            try jsonl.write(toFile: jsonlPath, atomically: true, encoding: .utf8)

            try check(path, label)
            try check(path, explore: true, "\(label), --explore")
            let all = try TraceStatistics.gather(path)
            XCTAssertGreaterThan(all.findingsPerRule.count, 3, label)
            XCTAssertGreaterThan(all.windowsOpened, 0, label)
            XCTAssertGreaterThan(all.cleanRuns, 0, label)
            if version == 2 { XCTAssertGreaterThan(all.processes.count, 1, label) }
            var processes: [String?] = [nil]
            processes += all.processes.map(\.process)
            for process in processes {
                try check(path, process: process, "\(label), process \(process ?? "(all)")")
                // The other reader, event by event: the same counts, the windows and clean runs too.
                let file = try TraceStatistics.gather(path, process: process)
                let lines = try TraceStatistics.gather(jsonlPath, process: process)
                XCTAssertEqual(file.text().replacing(path, with: "T"), lines.text().replacing(jsonlPath, with: "T"), label)
                XCTAssertEqual(file.json().replacing(path, with: "T"), lines.json().replacing(jsonlPath, with: "T"), label)
            }
        }
    }

    func testAMultiProcessFixtureCountsTheSameFromATraceFile() throws {
        let folder = TemporaryFolder()
        for name in ["rules/app-widget-share-extension-clean", "rules/group-widget-killed-unsaved"] {
            let jsonl = "\(repositoryRoot)/traces/\(name).jsonl"
            let path = folder.file("t.lmdb")
            try? FileManager.default.removeItem(atPath: path)
            try TraceInterchange.importJSONLines(from: jsonl, to: path)
            try check(path, name)
            for process in [nil, "", "com.example.notes.widget"] as [String?] {
                let file = try TraceStatistics.gather(path, process: process)
                let lines = try TraceStatistics.gather(jsonl, process: process)
                XCTAssertEqual(file.text().replacing(path, with: "T"), lines.text().replacing(jsonl, with: "T"), name)
            }
        }
    }
}
