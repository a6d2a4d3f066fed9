import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// `replay summary`: findings of many traces grouped by fingerprint, with traces, runs, builds
/// and an example; the same bytes every time; an unreadable trace left out with exit 2.
final class FindingSummaryTests: XCTestCase {
    /// A macOS session of one run per build of `runs`, each opening the Settings window; a run
    /// whose flag is set opens it a second time (duplicate-window at that run's fourth event).
    private static func settingsTrace(_ runs: [(build: String, twice: Bool)], os: String = "15.1") -> String {
        var lines = ["{\"format\":\"lifecycle-trace\",\"version\":2}"]
        for (i, run) in runs.enumerated() {
            let t = i * 1000
            lines.append("{\"event\":\"launch\",\"t\":\(t),\"platform\":\"macOS\",\"os\":\"\(os)\",\"build\":\"\(run.build)\",\"app\":\"Notes\","
                + "\"scenes\":[{\"id\":\"main\",\"kind\":\"WindowGroup\"},{\"id\":\"settings\",\"kind\":\"Settings\"}]}")
            lines.append("{\"event\":\"open\",\"t\":\(t + 10),\"window\":\"s\(i)a\",\"scene\":\"settings\"}")
            lines.append("{\"event\":\"phase\",\"t\":\(t + 11),\"window\":\"s\(i)a\",\"phase\":\"active\"}")
            if run.twice { lines.append("{\"event\":\"open\",\"t\":\(t + 20),\"window\":\"s\(i)b\",\"scene\":\"settings\"}") }
            lines.append("{\"event\":\"terminate\",\"t\":\(t + 50)}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A folder of traces: the duplicate Settings window planted in 3 of them (4 runs, builds
    /// 9, 10 and 10.1), a clean one, two generated clean ones, one as a trace file, one in a subfolder.
    private func plantedFolder(_ folder: TemporaryFolder) throws -> String {
        let root = folder.file("traces")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        folder.write("traces/a-clean.jsonl", Self.settingsTrace([("12", false), ("13", false)]))
        // Builds out of order in the trace: first and last seen go by the build's order, not the trace's.
        folder.write("traces/b.jsonl", Self.settingsTrace([("10", true), ("9", true)]))
        let c = folder.write("c-source.jsonl", Self.settingsTrace([("10.1", true), ("11", false)], os: "15.2"))
        try TraceInterchange.importJSONLines(from: c, to: root + "/c.lmdb")
        for seed in [1, 2] as [UInt64] {
            try TraceInterchange.generate(.init(events: 400, seed: seed, bugRate: 0, formatVersion: 2), to: root + "/gen\(seed).lmdb")
        }
        folder.write("traces/sub/d.jsonl", Self.settingsTrace([("9", true)]))
        return root
    }

    func testThePlantedBugIsOneGroupWithItsTracesRunsAndBuilds() throws {
        let folder = TemporaryFolder()
        let root = try plantedFolder(folder)
        let result = try replay("summary", root, "--format", "json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["traces"] as? Int, 6)
        XCTAssertEqual(json["replayed"] as? Int, 6)
        let groups = try XCTUnwrap(json["groups"] as? [[String: Any]])
        let duplicates = groups.filter { $0["rule"] as? String == "duplicate-window" }
        XCTAssertEqual(duplicates.count, 1, "one bug, one group: \(groups)")
        let group = try XCTUnwrap(duplicates.first)
        XCTAssertEqual(group["traces"] as? Int, 3)
        XCTAssertEqual(group["runs"] as? Int, 4)
        XCTAssertEqual(group["findings"] as? Int, 4)
        XCTAssertEqual(group["severity"] as? String, "error")
        XCTAssertEqual((group["builds"] as? [String: Any])?["values"] as? [String], ["9", "10", "10.1"])
        XCTAssertEqual(group["firstSeenBuild"] as? String, "9")
        XCTAssertEqual(group["lastSeenBuild"] as? String, "10.1")
        XCTAssertEqual((group["osVersions"] as? [String: Any])?["values"] as? [String], ["15.1", "15.2"])
        XCTAssertEqual((group["platforms"] as? [String: Any])?["values"] as? [String], ["macOS"])
        XCTAssertEqual((group["processes"] as? [String: Any])?["values"] as? [String], [""])
        XCTAssertEqual((group["subject"] as? [String: Any])?["scenes"] as? [String], ["settings"])
        let example = try XCTUnwrap(group["example"] as? [String: Any])
        XCTAssertEqual(example["trace"] as? String, root + "/b.jsonl", "the first trace in path order")
        XCTAssertEqual(example["name"] as? String, "b.jsonl")
        XCTAssertEqual(example["seq"] as? Int, 4, "its first finding")
        XCTAssertEqual((group["fingerprint"] as? String)?.count, 16)

        // The group's fingerprint is SARIF's, without the occurrence.
        let sarif = try replay(root + "/b.jsonl", "--format", "sarif")
        XCTAssertTrue(sarif.stdout.contains("\"\(group["fingerprint"] as? String ?? "?"):1\""), sarif.stdout)
        XCTAssertTrue(sarif.stdout.contains("\"\(group["fingerprint"] as? String ?? "?"):2\""), sarif.stdout)
    }

    /// Three hundred sessions, the bug planted at random (seeded) in runs of random builds: the
    /// group's traces, runs, findings, builds, first and last seen and example are what the plan
    /// says, counted here independently of the summary.
    func testABugPlantedAtRandomInHundredsOfTracesIsCountedExactly() throws {
        let folder = TemporaryFolder()
        let root = folder.file("many")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var random = SplitMix64(seed: 32)
        var traces = 0, runs = 0
        var builds: Set<Int> = []
        var example: (name: String, seq: Int)?
        for i in 0..<300 {
            let plan = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (build: Int.random(in: 1...40, using: &random), twice: Int.random(in: 0..<10, using: &random) == 0)
            }
            let name = "t" + String(1000 + i).dropFirst() + ".jsonl"
            folder.write("many/" + name, Self.settingsTrace(plan.map { ("\($0.build)", $0.twice) }))
            guard plan.contains(where: \.twice) else { continue }
            traces += 1
            runs += plan.count { $0.twice }
            builds.formUnion(plan.filter(\.twice).map(\.build))
            if example == nil {
                // Each run before the first doubled one has 4 events; the second open is its 4th.
                let before = plan.prefix { !$0.twice }.count
                example = (name, before * 4 + 4)
            }
        }
        XCTAssertGreaterThan(traces, 20, "the seed plants the bug in many traces")
        let result = try replay("summary", root, "--format", "json")
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try XCTUnwrap(json["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.count, 1, "one bug, one group")
        let group = try XCTUnwrap(groups.first)
        XCTAssertEqual(group["traces"] as? Int, traces)
        XCTAssertEqual(group["runs"] as? Int, runs)
        XCTAssertEqual(group["findings"] as? Int, runs)
        XCTAssertEqual(group["firstSeenBuild"] as? String, "\(builds.min()!)")
        XCTAssertEqual(group["lastSeenBuild"] as? String, "\(builds.max()!)")
        let listed = (group["builds"] as? [String: Any])?["values"] as? [String]
        XCTAssertEqual(listed, builds.sorted().prefix(FindingSummary.listedValues).map { "\($0)" })
        let shown = try XCTUnwrap(group["example"] as? [String: Any])
        XCTAssertEqual(shown["name"] as? String, example?.name)
        XCTAssertEqual(shown["seq"] as? Int, example?.seq)
    }

    func testTheSameTracesGiveTheSameBytesInEveryFormat() throws {
        let folder = TemporaryFolder()
        let root = try plantedFolder(folder)
        for format in ["text", "json", "html"] {
            let first = try replay("summary", root, "--format", format, "--explore")
            let second = try replay("summary", root, "--format", format, "--explore")
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertFalse(first.stdout.isEmpty)
            XCTAssertEqual(first.stdout, second.stdout, format)
        }
        // The library, without the command line: the same summary whatever order the traces finish in.
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".lmdb") }.sorted()
        let entries = paths.map { (path: root + "/" + $0, name: $0) }
        let one = FindingSummary.gather(entries, configuration: RuleConfiguration(), customRules: [])
        let again = FindingSummary.gather(entries, configuration: RuleConfiguration(), customRules: [])
        XCTAssertEqual(one.json(), again.json())
        XCTAssertEqual(one.text(), try replay("summary", root).stdout)
    }

    func testAnUnreadableTraceIsNamedAndSkippedWithExit2() throws {
        let folder = TemporaryFolder()
        let root = try plantedFolder(folder)
        folder.write("traces/broken.lmdb", "this is not a trace file, only a name that says so\n")
        let output = folder.file("summary.json")
        let result = try replay("summary", root, "--format", "json", "-o", output)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("broken.lmdb"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 of 7 traces could not be read"), result.stderr)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(json["replayed"] as? Int, 6)
        XCTAssertEqual(json["unreadable"] as? Int, 1)
        let errors = try XCTUnwrap(json["errors"] as? [[String: Any]])
        XCTAssertEqual(errors.first?["trace"] as? String, root + "/broken.lmdb")
        let group = (json["groups"] as? [[String: Any]])?.first { $0["rule"] as? String == "duplicate-window" }
        XCTAssertEqual(group?["traces"] as? Int, 3, "the others are summarised")
    }

    func testAssertFailsOnAnErrorGroup() throws {
        let folder = TemporaryFolder()
        let root = try plantedFolder(folder)
        let failing = try replay("summary", root, "--assert")
        XCTAssertEqual(failing.status, 1, failing.stderr)
        XCTAssertTrue(failing.stderr.contains("assertion failed"), failing.stderr)
        let clean = try replay("summary", root + "/a-clean.jsonl", "--assert")
        XCTAssertEqual(clean.status, 0, clean.stderr + clean.stdout)
        XCTAssertTrue(clean.stdout.hasPrefix("summary of 1 trace: 8 events, 2 runs; 0 findings in 0 groups\n"), clean.stdout)
    }

    func testTheHTMLPageLinksToTheExampleTimelineAtItsSeq() throws {
        let folder = TemporaryFolder()
        let root = try plantedFolder(folder)
        let page = folder.file("out/index.html")
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        let result = try replay("summary", root, "--format", "html", "-o", page)
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<a href=\"b.html#seq-4\">b.jsonl seq 4</a>"), html)
        XCTAssertTrue(html.contains("replay report \(root)/b.jsonl -o \(folder.file("out"))/b.html"), html)
        XCTAssertEqual(FindingSummary.timelinePage(for: "sub/d.jsonl"), "sub/d.html")
        XCTAssertEqual(FindingSummary.timelinePage(for: "v1.2/trace"), "v1.2/trace.html")
        XCTAssertEqual(FindingSummary.percentEncoded("a b/#c.html"), "a%20b/%23c.html")
        // The timeline page answers the anchor.
        XCTAssertTrue(try Timeline.build(root + "/b.jsonl").html().contains("#seq-("))
        // A text -o refuses another format's name.
        let refused = try replay("summary", root, "-o", folder.file("summary.json"))
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("--format json"), refused.stderr)
    }

    func testACrashJudgedAtTheNextLaunchCountsInTheRunThatCrashed() throws {
        let folder = TemporaryFolder()
        // Run 1 dies while active with nothing recorded; run 2 (the same build: another build would
        // be an update, not a crash) launches next and quits cleanly.
        let trace = folder.write("crash.jsonl", """
            {"event":"launch","t":0,"platform":"iOS","build":"5","os":"18.0","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"launch","t":5000,"platform":"iOS","build":"5","os":"18.0","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"terminate","t":6000}

            """)
        let tally = try TraceFindingTally.gather(trace, configuration: RuleConfiguration(), customRules: [])
        XCTAssertEqual(tally.runs, 2)
        let crash = try XCTUnwrap(tally.groups.values.first { $0.rule == .uncleanExit })
        XCTAssertEqual(crash.firstSeq, 4, "anchored at the next launch")
        XCTAssertEqual(crash.runs, [0], "but in the run that crashed")
        let summary = FindingSummary.gather([(trace, "crash.jsonl")], configuration: RuleConfiguration(), customRules: [])
        XCTAssertEqual(summary.sortedGroups.first { $0.rule == .uncleanExit }?.sortedBuilds, ["5"])
    }

    func testATraceFileNamingTheMainAppEmptyTalliesAsItsJSONLines() throws {
        // The main app both without `process` and with "process":"" (the same process, as the
        // reducer takes it): the kill at seq 6 falls in the run of build 1, from the trace file too.
        let folder = TemporaryFolder()
        let jsonl = folder.write("empty-process.jsonl", """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"build":"1"}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"launch","t":20,"process":"w","platform":"iOS","scenes":[]}
            {"event":"phase","t":30,"phase":"background","process":""}
            {"event":"write","t":40,"key":"draft","scope":"scene","window":"w1","process":""}
            {"event":"kill","t":50,"reason":"jetsam","process":""}

            """)
        let lmdb = folder.file("empty-process.lmdb")
        try TraceInterchange.importJSONLines(from: jsonl, to: lmdb)
        for path in [jsonl, lmdb] {
            let tally = try TraceFindingTally.gather(path, configuration: RuleConfiguration(), customRules: [])
            XCTAssertEqual(tally.processes, ["", "w"], path)
            let lost = try XCTUnwrap(tally.groups.values.first { $0.rule == .unsavedAtExit }, path)
            XCTAssertEqual(lost.runs, [0], path)
            XCTAssertEqual(lost.processes, [0], path)
        }
    }

    func testBuildsOrderNumerically() {
        XCTAssertEqual(["10", "9", "1.10", "1.9", "2.0b1", "2.0", "007", "7", "a", "B"].sorted(by: BuildOrder.precedes),
                       ["1.9", "1.10", "2.0", "2.0b1", "007", "7", "9", "10", "B", "a"])
        XCTAssertFalse(BuildOrder.precedes("10", "10"))
        // A list shows its first 20 values and how many more.
        let builds = (1...25).map(String.init)
        XCTAssertEqual(FindingSummary.listText(builds), (1...20).map(String.init).joined(separator: ", ") + " and 5 more")
        XCTAssertEqual(FindingSummary.listText([]), "none recorded")
    }
}
