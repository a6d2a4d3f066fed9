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
        items(requests, "resourceLogs", "scopeLogs", "logRecords")
    }

    /// (resource attributes, span) for every span, in order.
    private func spans(_ requests: [JSONValue]) -> [(resource: [String: String], record: JSONValue)] {
        items(requests, "resourceSpans", "scopeSpans", "spans")
    }

    private func items(_ requests: [JSONValue], _ resources: String, _ scopes: String, _ list: String) -> [(resource: [String: String], record: JSONValue)] {
        requests.flatMap { request in
            items(member(request, resources)).flatMap { resourceItems in
                let resource = attributes(member(member(resourceItems, "resource"), "attributes"))
                return items(member(resourceItems, scopes)).flatMap { items(member($0, list)) }.map { (resource, $0) }
            }
        }
    }

    private func seq(_ record: JSONValue) -> Int { Int(attributes(member(record, "attributes"))["lifecycle_log.seq"] ?? "") ?? -1 }

    private func string(_ value: JSONValue?) -> String? { if case .string(let s)? = value { s } else { nil } }

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
        XCTAssertEqual(requests.count, 1, "the app and the widget take turns, and each is one resource of the one request")
        XCTAssertEqual(items(member(requests[0], "resourceLogs")).count, 2)
        let all = records(requests)
        let events = all.filter { name($0.record) != "lifecycle_log.finding" }
        XCTAssertEqual(events.map { seq($0.record) }.sorted(), Array(1...9))
        XCTAssertEqual(events.map { seq($0.record) }, [1, 2, 3, 6, 7, 8, 9, 4, 5], "each process's records in order")
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
        let lifecycle = all.filter { name($0.record) == "device.app.lifecycle" }
        XCTAssertEqual(lifecycle.map { attributes(member($0.record, "attributes"))["ios.app.state"] }, ["active", "background", "terminate"])
        XCTAssertTrue(lifecycle.allSatisfy { member($0.record, "body") == nil }, "ios.app.state is an attribute since semantic conventions 1.31")
        XCTAssertEqual(all.filter { name($0.record) == "lifecycle_log.phase" }.count, 1, "a window's phase is the project's own event")
        // Time: the start plus t, in nanoseconds, as a string.
        XCTAssertEqual(member(events[2].record, "timeUnixNano"), .string("1764324000020000000"))
        // Findings: after their anchor, with severity, rule, fingerprint and seq.
        let findings = all.filter { name($0.record) == "lifecycle_log.finding" }
        XCTAssertFalse(findings.isEmpty)
        let replayed = try Replayer.replay(trace).findings.sorted { ($0.seq, $0.rule.rawValue) < ($1.seq, $1.rule.rawValue) }
        let exported = findings.sorted { (seq($0.record), name($0.record)) < (seq($1.record), name($1.record)) }
        XCTAssertEqual(exported.map { attributes(member($0.record, "attributes"))["lifecycle_log.rule"] }, replayed.map(\.rule.rawValue))
        var fingerprints = FindingFingerprints()
        let expected = try Replayer.replay(trace).findings.map { fingerprints.next($0) }
        XCTAssertEqual(Set(findings.compactMap { attributes(member($0.record, "attributes"))["lifecycle_log.fingerprint"] }), Set(expected),
                       "the fingerprints SARIF gives")
        for (record, finding) in zip(exported, replayed) {
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

    func testForegroundIsTheWayBackFromTheBackgroundAndARunTerminatesOnce() throws {
        let folder = TemporaryFolder()
        let trace = write(folder, [
            #"{"event":"launch","t":0,"platform":"iPadOS","scenes":[{"id":"main","kind":"WindowGroup"}],"reason":"background"}"#,
            #"{"event":"phase","t":10,"phase":"inactive"}"#,
            #"{"event":"phase","t":20,"phase":"active"}"#,
            #"{"event":"phase","t":30,"phase":"inactive"}"#,
            #"{"event":"phase","t":40,"phase":"background"}"#,
            #"{"event":"phase","t":50,"phase":"inactive"}"#,
            #"{"event":"delegate","t":60,"callback":"willTerminate"}"#,
            #"{"event":"terminate","t":61}"#,
            #"{"event":"launch","t":70,"platform":"iOS","scenes":[]}"#,
            #"{"event":"terminate","t":80}"#,
        ])
        let states = records(try export(trace).requests).filter { name($0.record) == "device.app.lifecycle" }.map {
            attributes(member($0.record, "attributes"))["ios.app.state"] ?? "?"
        }
        XCTAssertEqual(states, ["foreground", "active", "inactive", "background", "foreground", "terminate", "terminate"],
                       "a background launch comes to the foreground; willTerminate and its terminate are one terminate")
    }

    func testTracesAreARunWithItsWindowsAndTheirPhasesAsSpans() throws {
        let folder = TemporaryFolder()
        let trace = write(folder, [
            #"{"format":"lifecycle-trace","version":2}"#,
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"app":"com.example.notes","build":"42","os":"18.2"}"#,
            #"{"event":"open","t":10,"window":"w1","scene":"main"}"#,
            #"{"event":"phase","t":20,"window":"w1","phase":"active"}"#,
            #"{"event":"launch","t":25,"process":"com.example.notes.widget","platform":"iOS","scenes":[],"reason":"background"}"#,
            #"{"event":"write","t":26,"process":"com.example.notes.widget","key":"count","scope":"group"}"#,
            #"{"event":"write","t":30,"key":"draft","scope":"scene","window":"w1"}"#,
            #"{"event":"phase","t":40,"window":"w1","phase":"background"}"#,
            #"{"event":"kill","t":50,"reason":"jetsam"}"#,
        ])
        let (text, requests) = try export(trace, ["--otlp-signal", "traces", "--start-unix-ms", "1000"])
        XCTAssertEqual(try export(trace, ["--otlp-signal", "traces", "--start-unix-ms", "1000"]).text, text, "the same bytes every time")
        let all = spans(requests)
        func named(_ n: String) -> [JSONValue] { all.map(\.record).filter { string(member($0, "name")) == n } }
        // A run per process, each the root of a trace of its own.
        let runs = named("run")
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(Set(runs.compactMap { string(member($0, "traceId")) }).count, 2)
        XCTAssertTrue(runs.allSatisfy { member($0, "parentSpanId") == nil })
        XCTAssertEqual(Set(all.map { $0.resource["service.name"] ?? "" }), ["com.example.notes", "com.example.notes.widget"])
        let app = try XCTUnwrap(runs.first { attributes(member($0, "attributes"))["lifecycle_log.end"] == "kill" })
        XCTAssertEqual(member(app, "startTimeUnixNano"), .string("1000000000"))
        XCTAssertEqual(member(app, "endTimeUnixNano"), .string("1050000000"))
        // The window, and its phases under it: inactive (the app's, until its own), active, background.
        let window = try XCTUnwrap(named("window main").first)
        XCTAssertEqual(member(window, "parentSpanId"), member(app, "spanId"))
        XCTAssertEqual(attributes(member(window, "attributes"))["lifecycle_log.window"], "w1")
        let phases = all.map(\.record).filter { member($0, "parentSpanId") == member(window, "spanId") }
            .sorted { UInt64(string(member($0, "startTimeUnixNano")) ?? "") ?? 0 < UInt64(string(member($1, "startTimeUnixNano")) ?? "") ?? 0 }
        XCTAssertEqual(phases.map { string(member($0, "name")) }, ["inactive", "active", "background"])
        XCTAssertEqual(phases.map { string(member($0, "endTimeUnixNano")) }, ["1020000000", "1040000000", "1050000000"])
        // The findings at the background (missed-background-save, an error; phase-skip) are events of
        // the app's run, whose status is then ERROR.
        let events = items(member(app, "events")).map { attributes(member($0, "attributes")) }
        XCTAssertEqual(events.map { $0["lifecycle_log.rule"] }, ["missed-background-save", "phase-skip"])
        XCTAssertEqual(events.map { $0["lifecycle_log.seq"] }, ["7", "7"])
        XCTAssertEqual(events.map { $0["lifecycle_log.fingerprint"]?.count }, [18, 18])
        XCTAssertEqual(member(member(app, "status"), "code"), .number("2"))
        XCTAssertEqual(member(member(app, "status"), "message"), .string("1 error finding"))
        // The widget's run is still going at the end of the trace.
        let widget = try XCTUnwrap(runs.first { attributes(member($0, "attributes"))["lifecycle_log.end"] == "end of trace" })
        XCTAssertEqual(member(widget, "endTimeUnixNano"), .string("1050000000"))
        for span in all.map(\.record) {
            XCTAssertEqual(string(member(span, "traceId"))?.count, 32)
            XCTAssertEqual(string(member(span, "spanId"))?.count, 16)
        }
    }

    func testAnUnreadableTraceWritesNoSpansAndExitsTwo() throws {
        let folder = TemporaryFolder()
        let out = folder.file("spans.json")
        let missing = folder.file("missing.lmdb")
        let result = try runProgram(replayExecutable, ["export", missing, "--format", "otlp", "--otlp-signal", "traces", "-o", out])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("missing.lmdb"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let misused = try runProgram(replayExecutable, ["export", missing, "--otlp-signal", "traces"])
        XCTAssertEqual(misused.status, 2)
        XCTAssertTrue(misused.stderr.contains("--format otlp"), misused.stderr)
    }
}
