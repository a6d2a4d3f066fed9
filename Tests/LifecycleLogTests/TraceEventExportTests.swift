import Foundation
import XCTest
@testable import LifecycleLog

/// `replay export --format perfetto`: Chrome trace-event JSON.
final class TraceEventExportTests: XCTestCase {
    private let example = "\(repositoryRoot)/traces/examples/notes-ipad-killed-in-background.jsonl"
    private let editor = "\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl"

    /// One trace event, as parsed.
    private struct TraceEvent {
        var members: [JSONMember]
        subscript(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
        var ph: String { if case .string(let s)? = self["ph"] { return s } else { return "" } }
        var name: String { if case .string(let s)? = self["name"] { return s } else { return "" } }
        func int(_ name: String) -> Int? { if case .number(let n)? = self[name] { return Int(n) } else { return nil } }
        func arg(_ name: String) -> JSONValue? {
            guard case .object(let args)? = self["args"] else { return nil }
            return args.first { $0.name == name }?.value
        }
    }

    /// Exports `trace` through the built `replay` and parses the output with the library's strict parser.
    private func export(_ trace: String, _ extra: String...) throws -> (text: String, events: [TraceEvent]) {
        let folder = TemporaryFolder()
        let out = folder.file("trace.json")
        let result = try runProgram(replayExecutable, ["export", trace, "--format", "perfetto", "-o", out] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        var bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeMutableBufferPointer { buf in try JSONParser.parse(UnsafeBufferPointer(buf)) }
        guard case .object(let top) = parsed, case .array(let items)? = top.first(where: { $0.name == "traceEvents" })?.value else {
            XCTFail("not a trace-event object"); return (text, [])
        }
        XCTAssertEqual(top.first { $0.name == "displayTimeUnit" }?.value, .string("ms"))
        let events = items.map { item -> TraceEvent in
            guard case .object(let members) = item else { XCTFail("not an object: \(item)"); return TraceEvent(members: []) }
            return TraceEvent(members: members)
        }
        for e in events {
            XCTAssertTrue(["M", "X", "i"].contains(e.ph), "\(e.members)")
            XCTAssertNotNil(e.int("pid")); XCTAssertNotNil(e.int("tid"))
            if e.ph != "M" { XCTAssertNotNil(e["ts"]) }
        }
        return (text, events)
    }

    func testTheAppIsAProcessItsRunsFollowEachOtherWindowsAreNamedThreadsAndPhasesAreSlices() throws {
        let (_, events) = try export(example)
        let names = events.filter { $0.ph == "M" && $0.name == "thread_name" }.map { "\($0.int("pid")!)/\($0.int("tid")!) \($0.arg("name")!)" }
        XCTAssertEqual(names, [#"1/0 string("app phase")"#, #"1/1 string("w1 · library")"#, #"1/2 string("w2 · note 42")"#])
        let processes = events.filter { $0.ph == "M" && $0.name == "process_name" }.map { $0.arg("name") }
        XCTAssertEqual(processes, [.string("app")])
        // Each run's launch is a process-scoped instant with the run's number.
        let launches = events.filter { $0["cat"] == .string("launch") }
        XCTAssertEqual(launches.map { $0.arg("run") }, [.number("1"), .number("2")])
        XCTAssertTrue(launches.allSatisfy { $0.int("pid") == 1 && $0["s"] == .string("p") })
        // w1's phases as complete slices, ts and dur in µs from t in ms.
        func slices(_ tid: Int) -> [String] {
            events.filter { $0.ph == "X" && $0.int("pid") == 1 && $0.int("tid") == tid }
                .sorted { $0.int("ts")! < $1.int("ts")! }
                .map { "\($0.name) \($0.int("ts")!)+\($0.int("dur")!)" }
        }
        XCTAssertEqual(slices(1), ["inactive 5000+2000", "active 7000+1993000", "inactive 2000000+100000", "background 2100000+1000"])
        XCTAssertEqual(slices(0), ["inactive 0+7000", "active 7000+1993000", "inactive 2000000+101000"])
        XCTAssertTrue(events.filter { $0.ph == "X" && $0.int("tid") == 1 }.allSatisfy { $0.arg("window") == .string("w1") && $0.arg("scene") == .string("library") })
        XCTAssertEqual(events.first { $0.ph == "X" && $0.int("tid") == 0 }?["cat"], .string("app-phase"))
    }

    func testFindingsAreInstantsOnTheirWindowsThreadWithRuleAndMessage() throws {
        let (_, events) = try export(example)
        let findings = events.filter { $0.ph == "i" && $0["cat"] == .string("finding") }
        XCTAssertEqual(findings.map(\.name), ["lost-update", "missed-background-save"])
        let lost = try XCTUnwrap(findings.first)
        XCTAssertEqual(lost["s"], .string("t"))
        XCTAssertEqual(lost.int("tid"), 2)
        XCTAssertEqual(lost.int("ts"), 990_000)
        XCTAssertEqual(lost.arg("rule"), .string("lost-update"))
        XCTAssertEqual(lost.arg("severity"), .string("error"))
        XCTAssertEqual(lost.arg("seq"), .number("8"))
        XCTAssertEqual(lost.arg("related"), .array([.number("6"), .number("7")]))
        guard case .string(let message)? = lost.arg("message") else { return XCTFail("no message") }
        XCTAssertTrue(message.hasPrefix("Window w2 wrote \"notes\" (shared)"))
        // --explore adds the what-if findings.
        let explored = try export(example, "--explore").events.filter { $0["cat"] == .string("finding") }
        XCTAssertGreaterThan(explored.count, findings.count)
        XCTAssertTrue(explored.contains { $0.name == "kill-exposure" })
    }

    func testMarksAndOtherEventsAreInstantsWithTheirFields() throws {
        let (_, events) = try export(editor)
        let marks = events.filter { $0["cat"] == .string("mark") }
        XCTAssertEqual(marks.map(\.name), ["step 1: edit a.txt", "step 2: Cmd-Q"])
        XCTAssertTrue(marks.allSatisfy { $0.ph == "i" && $0["s"] == .string("p") })
        XCTAssertEqual(marks.map { $0.int("ts") }, [1_000_000, 7_000_000])
        let write = try XCTUnwrap(events.first { $0["cat"] == .string("write") })
        XCTAssertEqual(write.arg("key"), .string("text"))
        XCTAssertEqual(write.arg("seq"), .number("6"))
        // No phase event is an instant: phases are the slices.
        XCTAssertFalse(events.contains { $0["cat"] == .string("phase") && $0.ph == "i" })
        // A clean run: its slices end at terminate.
        XCTAssertEqual(events.filter { $0.ph == "X" && $0.int("tid") == 0 }.map { $0.int("ts")! + $0.int("dur")! }.max(), 7_002_000)
    }

    func testTheOutputIsDeterministicTheSameFromEitherTraceFormAndBadRequestsExitTwo() throws {
        let folder = TemporaryFolder()
        let lmdb = folder.file("g.lmdb")
        try TraceInterchange.generate(.init(events: 3000, seed: 5, bugRate: 20), to: lmdb)
        let jsonl = folder.file("g.jsonl")
        XCTAssertEqual(try replay("export", lmdb, "-o", jsonl).status, 0)
        let first = try export(lmdb)
        XCTAssertEqual(first.text, try export(lmdb).text)
        XCTAssertEqual(first.text.replacingOccurrences(of: "\"source\":\"g.lmdb\"", with: ""),
                       try export(jsonl).text.replacingOccurrences(of: "\"source\":\"g.jsonl\"", with: ""))
        XCTAssertGreaterThan(first.events.filter { $0.ph == "X" }.count, 100)
        // Every finding of the report is an instant.
        let report = try Replayer.replay(lmdb)
        XCTAssertEqual(first.events.filter { $0["cat"] == .string("finding") }.count, report.errors + report.warnings)
        // Standard output gives the same bytes.
        XCTAssertEqual(try replay("export", lmdb, "--format", "perfetto").stdout, first.text)
        XCTAssertEqual(try replay("export", lmdb, "--format", "perfetto", "--salvage").status, 2)
        XCTAssertEqual(try replay("export", lmdb, "--explore").status, 2)
        XCTAssertEqual(try replay("export", lmdb, "--format", "chrome").status, 2)
        let missing = try replay("export", folder.file("missing.lmdb"), "--format", "perfetto", "-o", folder.file("x.json"))
        XCTAssertEqual(missing.status, 2)
        XCTAssertFalse(folder.contents.contains("x.json"))
    }
}

/// `replay export --format perfetto` of a trace of several processes (trace format 2).
final class TraceEventExportProcessTests: XCTestCase {
    private func export(_ trace: String) throws -> [[JSONMember]] {
        var text = ""
        try TraceEventExport.write(trace) { text += $0 }
        var bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeMutableBufferPointer { buf in try JSONParser.parse(UnsafeBufferPointer(buf)) }
        guard case .object(let top) = parsed, case .array(let items)? = top.first(where: { $0.name == "traceEvents" })?.value else {
            XCTFail("not a trace-event object"); return []
        }
        return items.compactMap { if case .object(let m) = $0 { return m } else { return nil } }
    }

    private func value(_ e: [JSONMember], _ name: String) -> String {
        guard let v = e.first(where: { $0.name == name })?.value else { return "" }
        switch v {
        case .string(let s): return s
        case .number(let n): return n
        case .object(let args): return args.first { $0.name == "name" }.map { value([$0], "name") } ?? ""
        default: return "\(v)"
        }
    }

    func testEachRecordedProcessIsOneNamedProcessWithItsOwnWindowsAndPhases() throws {
        let events = try export("\(repositoryRoot)/traces/rules/app-widget-share-extension-clean.jsonl")
        let names = events.filter { value($0, "ph") == "M" && value($0, "name") == "process_name" }.map { "\(value($0, "pid")) \(value($0, "args"))" }
        XCTAssertEqual(names, ["1 com.example.notes (app)", "2 com.example.notes.widget", "3 com.example.notes.share"])
        let threads = events.filter { value($0, "ph") == "M" && value($0, "name") == "thread_name" }.map { "\(value($0, "pid"))/\(value($0, "tid")) \(value($0, "args"))" }
        XCTAssertEqual(threads, ["1/0 app phase", "1/1 w1 · main", "2/0 app phase", "3/0 app phase", "3/1 w1 · compose"])
        func slices(_ pid: String, _ tid: String) -> [String] {
            events.filter { value($0, "ph") == "X" && value($0, "pid") == pid && value($0, "tid") == tid }
                .map { "\(value($0, "name")) \(value($0, "ts"))+\(value($0, "dur"))" }.sorted()
        }
        // The app's window and app phase are drawn through the other processes' events.
        XCTAssertEqual(slices("1", "1"), ["active 20000+50000", "background 80000+10000", "inactive 10000+10000", "inactive 70000+10000"])
        XCTAssertEqual(slices("1", "0"), ["active 20000+50000", "background 80000+10000", "inactive 0+20000", "inactive 70000+10000"])
        XCTAssertEqual(slices("2", "0"), ["background 30000+10000"])
        XCTAssertEqual(slices("3", "1"), ["active 52000+4000", "inactive 51000+1000"])
        // No process's launch ends another's run.
        XCTAssertFalse(events.contains { value($0, "name") == "ended without terminate" })
        let launches = events.filter { value($0, "cat") == "launch" }.map { "\(value($0, "pid")) run \(runOf($0))" }
        XCTAssertEqual(launches, ["1 run 1", "2 run 1", "3 run 1"])
    }

    func testATestRunnersMarkFirstMakesItAProcessButTheAppSortsFirst() throws {
        let events = try export("\(repositoryRoot)/traces/rules/harness-xcuitest-terminate.jsonl")
        let sorted = events.filter { value($0, "name") == "process_sort_index" }.map { "\(value($0, "pid")) \(sortIndex($0))" }
        XCTAssertEqual(sorted, ["1 1", "2 0"])
        let names = events.filter { value($0, "name") == "process_name" }.map { value($0, "args") }
        XCTAssertEqual(names, ["com.example.NotesUITests.xctrunner", "app"])
        // The harness's kill ends the app's run: its slices end there, and no run "ended without terminate".
        XCTAssertFalse(events.contains { value($0, "name") == "ended without terminate" })
    }

    private func sortIndex(_ e: [JSONMember]) -> String {
        guard case .object(let args)? = e.first(where: { $0.name == "args" })?.value, case .number(let n)? = args.first(where: { $0.name == "sort_index" })?.value else { return "?" }
        return n
    }

    private func runOf(_ e: [JSONMember]) -> String {
        guard case .object(let args)? = e.first(where: { $0.name == "args" })?.value, case .number(let n)? = args.first(where: { $0.name == "run" })?.value else { return "?" }
        return n
    }

    func testATimeTooLargeForMicrosecondsNeverWritesInfOrNaN() throws {
        let folder = TemporaryFolder()
        let path = folder.file("huge.jsonl")
        try """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":1,"window":"w1","scene":"main"}
            {"event":"phase","t":1e306,"window":"w1","phase":"active"}
            {"event":"terminate","t":1.7e308}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        var text = ""
        try TraceEventExport.write(path) { text += $0 }
        XCTAssertFalse(text.contains("inf"), text)
        XCTAssertFalse(text.contains("nan"), text)
        XCTAssertFalse(try export(path).isEmpty, "the strict parser reads it")
    }
}
