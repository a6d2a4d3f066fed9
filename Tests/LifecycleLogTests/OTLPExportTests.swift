import Foundation
import XCTest
@testable import LifecycleLog
import LifecycleLogRecorder

/// `replay export --format otlp`: OpenTelemetry logs as OTLP/JSON (issue 32). `scripts/check-otlp`
/// parses the same output with the official protobuf definitions; these tests check what it means.
final class OTLPExportTests: XCTestCase {
    /// Exports `trace` through the built `replay`; the lines, each parsed with the library's strict parser.
    private func export(_ trace: String, _ extra: [String] = []) throws -> (text: String, requests: [JSONValue]) {
        let folder = TemporaryFolder()
        let out = folder.file("logs.json")
        let result = try runProgram(replayExecutable, ["export", trace, "--format", "otlp", "-o", out] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let requests = try text.split(separator: "\n").map { line -> JSONValue in
            var bytes = Array(line.utf8)
            return try bytes.withUnsafeMutableBufferPointer { try JSONParser.parse(UnsafeBufferPointer($0)) }
        }
        return (text, requests)
    }

    private func member(_ value: JSONValue?, _ name: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.name == name }?.value
    }

    private func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items } else { return [] }
    }

    /// `key` → the string, integer or other value of a list of `KeyValue`s.
    private func attributes(_ list: JSONValue?) -> [String: String] {
        var result: [String: String] = [:]
        for kv in items(list) {
            guard case .string(let key)? = member(kv, "key") else { continue }
            switch member(kv, "value") {
            case .object(let members)?:
                if case .string(let s)? = members.first?.value { result[key] = s } else { result[key] = "\(members.first?.value as Any)" }
            default: result[key] = "not an AnyValue"
            }
        }
        return result
    }

    /// (resource attributes, record) for every record, in order.
    private func records(_ requests: [JSONValue]) -> [(resource: [String: String], record: JSONValue)] {
        requests.flatMap { request in
            items(member(request, "resourceLogs")).flatMap { resourceLogs in
                let resource = attributes(member(member(resourceLogs, "resource"), "attributes"))
                return items(member(resourceLogs, "scopeLogs")).flatMap { items(member($0, "logRecords")) }.map { (resource, $0) }
            }
        }
    }

    private func name(_ record: JSONValue) -> String { if case .string(let s)? = member(record, "eventName") { s } else { "" } }

    private func write(_ folder: TemporaryFolder, _ lines: [String]) -> String {
        folder.write("t.jsonl", lines.joined(separator: "\n") + "\n")
    }

    func testEveryEventAndFindingIsARecordInItsProcesssResource() throws {
        let folder = TemporaryFolder()
        let trace = write(folder, [
            #"{"format":"lifecycle-trace","version":2}"#,
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"app":"com.example.notes","build":"42","os":"18.2","deviceModel":"iPhone17,1"}"#,
            #"{"event":"open","t":10,"window":"w1","scene":"main"}"#,
            #"{"event":"phase","t":20,"phase":"active"}"#,
            #"{"event":"launch","t":30,"process":"com.example.notes.widget","platform":"iOS","scenes":[],"reason":"background","build":"43"}"#,
            #"{"event":"write","t":40,"process":"com.example.notes.widget","key":"count","scope":"group"}"#,
            #"{"event":"write","t":50,"key":"draft","scope":"scene","window":"w1"}"#,
            #"{"event":"phase","t":60,"phase":"background"}"#,
            #"{"event":"phase","t":60,"phase":"background","window":"w1"}"#,
            #"{"event":"delegate","t":70,"callback":"willTerminate"}"#,
        ])
        let (text, requests) = try export(trace, ["--start-unix-ms", "1764324000000"])
        XCTAssertEqual(try export(trace, ["--start-unix-ms", "1764324000000"]).text, text, "the same bytes every time")
        let all = records(requests)
        let events = all.filter { name($0.record) != "lifecycle_log.finding" }
        XCTAssertEqual(events.map { attributes(member($0.record, "attributes"))["lifecycle_log.seq"] }, (1...9).map { "\($0)" })
        // One resource per process, from its first launch.
        let app = all[0].resource
        XCTAssertEqual(app["service.name"], "com.example.notes")
        XCTAssertEqual(app["service.version"], "42")
        XCTAssertEqual(app["os.name"], "iOS")
        XCTAssertEqual(app["os.version"], "18.2")
        XCTAssertEqual(app["device.model.identifier"], "iPhone17,1")
        XCTAssertEqual(app["lifecycle_log.process"], "")
        let widget = all.first { attributes(member($0.record, "attributes"))["lifecycle_log.seq"] == "5" }?.resource
        XCTAssertEqual(widget?["service.name"], "com.example.notes.widget")
        XCTAssertEqual(widget?["service.version"], "43")
        // The app-level phases and willTerminate of a UIKit app are the mobile lifecycle event.
        let lifecycle = all.filter { name($0.record) == "device.app.lifecycle" }.map { record in
            attributes(member(member(member(record.record, "body"), "kvlistValue"), "values"))["ios.app.state"] ?? "?"
        }
        XCTAssertEqual(lifecycle, ["active", "background", "terminate"])
        XCTAssertEqual(all.filter { name($0.record) == "lifecycle_log.phase" }.count, 1, "a window's phase is the project's own event")
        // Time: the start plus t, in nanoseconds, as a string.
        XCTAssertEqual(member(events[2].record, "timeUnixNano"), .string("1764324000020000000"))
        // Findings: after their anchor, with severity, rule, fingerprint and seq.
        let findings = all.filter { name($0.record) == "lifecycle_log.finding" }
        XCTAssertFalse(findings.isEmpty)
        let replayed = try Replayer.replay(trace).findings
        XCTAssertEqual(findings.map { attributes(member($0.record, "attributes"))["lifecycle_log.rule"] }, replayed.map(\.rule.rawValue))
        for (record, finding) in zip(findings, replayed) {
            let a = attributes(member(record.record, "attributes"))
            XCTAssertEqual(a["lifecycle_log.seq"], "\(finding.seq)")
            XCTAssertEqual(member(record.record, "severityText"), .string(finding.severity == .error ? "ERROR" : "WARN"))
            XCTAssertEqual(a["lifecycle_log.fingerprint"]?.count, 18, "16 hex digits, a colon and the occurrence")
            XCTAssertEqual(member(member(record.record, "body"), "stringValue"), .string(finding.message))
        }
    }

    func testAMacAppsPhasesAreNotTheIOSEventAndLongTracesAreSplitIntoRequests() throws {
        let folder = TemporaryFolder()
        var lines = [#"{"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#]
        for i in 1...1_100 { lines.append(#"{"event":"mark","t":"# + "\(i)" + #","label":"step"}"#) }
        lines.append(#"{"event":"phase","t":2000,"phase":"active"}"#)
        let (_, requests) = try export(write(folder, lines))
        XCTAssertEqual(requests.count, 3, "at most \(OTLPLogsExport.recordsPerRequest) records to a request")
        let all = records(requests)
        XCTAssertEqual(all.count, 1_102)
        XCTAssertFalse(all.contains { name($0.record) == "device.app.lifecycle" }, "ios.app.state is for UIKit's states")
        XCTAssertEqual(member(all[5].record, "timeUnixNano"), .string("5000000"), "t 0 is 1970 unless --start-unix-ms says otherwise")
    }

    /// `--format otlp-traces`: each run a trace whose root span runs from its launch to its end,
    /// each recorded phase of a window or the app a child span until the next phase, the dismiss or
    /// the run's end.
    func testEachRunIsATraceAndEachPhaseASpan() throws {
        let folder = TemporaryFolder()
        let trace = write(folder, [
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
            #"{"event":"open","t":10,"window":"w1","scene":"main"}"#,
            #"{"event":"phase","t":20,"window":"w1","phase":"active"}"#,
            #"{"event":"phase","t":20,"phase":"active"}"#,
            #"{"event":"phase","t":50,"window":"w1","phase":"background"}"#,
            #"{"event":"dismiss","t":70,"window":"w1"}"#,
            #"{"event":"launch","t":100,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
            #"{"event":"open","t":110,"window":"w1","scene":"main"}"#,
            #"{"event":"phase","t":120,"window":"w1","phase":"active"}"#,
            #"{"event":"terminate","t":200}"#,
        ])
        let out = folder.file("spans.json")
        let run = try runProgram(replayExecutable, ["export", trace, "--format", "otlp-traces", "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        var spans: [(name: String, trace: String, id: String, parent: String?, start: String, end: String)] = []
        for line in text.split(separator: "\n") {
            var bytes = Array(line.utf8)
            let request = try bytes.withUnsafeMutableBufferPointer { try JSONParser.parse(UnsafeBufferPointer($0)) }
            for resourceSpans in items(member(request, "resourceSpans")) {
                for scopeSpans in items(member(resourceSpans, "scopeSpans")) {
                    for span in items(member(scopeSpans, "spans")) {
                        func string(_ name: String) -> String? { if case .string(let s)? = member(span, name) { s } else { nil } }
                        spans.append((string("name") ?? "", string("traceId") ?? "", string("spanId") ?? "", string("parentSpanId"),
                                      string("startTimeUnixNano") ?? "", string("endTimeUnixNano") ?? ""))
                    }
                }
            }
        }
        let described = spans.map { "\($0.name) \($0.start)-\($0.end)" }
        XCTAssertEqual(described, ["main active 20000000-50000000", "main background 50000000-70000000", "app active 20000000-100000000",
                                   "run 1 0-100000000", "main active 120000000-200000000", "run 2 100000000-200000000"])
        let roots = spans.filter { $0.parent == nil }
        XCTAssertEqual(roots.count, 2)
        XCTAssertNotEqual(roots[0].trace, roots[1].trace, "a trace per run")
        for span in spans where span.parent != nil {
            XCTAssertTrue(roots.contains { $0.trace == span.trace && $0.id == span.parent }, "\(span.name): its run is its parent")
        }
        XCTAssertEqual(Set(spans.map(\.id)).count, spans.count, "span ids differ")
        XCTAssertTrue(spans.allSatisfy { $0.trace.count == 32 && $0.id.count == 16 })
        let again = folder.file("again.json")
        XCTAssertEqual(try runProgram(replayExecutable, ["export", trace, "--format", "otlp-traces", "-o", again]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), text, "the same bytes every time")
    }

    func testAnUnreadableTraceWritesNothingAndExitsTwo() throws {
        let folder = TemporaryFolder()
        let trace = write(folder, [#"{"event":"launch","t":0,"platform":"iOS","scenes":[]}"#, #"{"event":"open","t":"soon"}"#])
        let out = folder.file("logs.json")
        let result = try runProgram(replayExecutable, ["export", trace, "--format", "otlp", "-o", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("line 2"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let misused = try runProgram(replayExecutable, ["export", trace, "--start-unix-ms", "5"])
        XCTAssertEqual(misused.status, 2)
        XCTAssertTrue(misused.stderr.contains("--format otlp"), misused.stderr)
    }
}
