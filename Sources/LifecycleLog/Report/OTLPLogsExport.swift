import LifecycleLogRecorder
import LifecycleLogRules

/// A trace as OpenTelemetry logs: the OTLP/JSON file format that the OpenTelemetry Collector's
/// `otlpjsonfile` receiver reads, one `ExportLogsServiceRequest` per line (issue 32).
///
/// - **Records.** Each event is a log record (severity `INFO`) with its seq, kind and members as
///   attributes under `lifecycle_log.`. An app-level state change of a UIKit platform (iOS, iPadOS,
///   tvOS, visionOS, Mac Catalyst) is the semantic conventions' mobile event
///   `device.app.lifecycle` (its `eventName`), with the attribute `ios.app.state` (`active`,
///   `inactive`, `foreground`, `background`, `terminate`; ``IOSAppStates`` says which event is
///   which); every other event is named `lifecycle_log.` and its kind. Each finding is a record
///   `lifecycle_log.finding` right after its anchor event, with its severity (`WARN`, `ERROR`),
///   rule, fingerprint (`lifecycleFindingHash/v2`, as SARIF's), seq and related seqs, its message
///   as the body.
/// - **Resources.** One per recorded process, from the process's first `launch`
///   (``OTLPJSON/resource(process:launch:extra:)``): `service.name`, `service.version`, `os.name`,
///   `os.version`, `device.model.identifier` when known, `lifecycle_log.process`. A request holds
///   each process's records under one `ResourceLogs` (``OTLPRequestWriter``).
/// - **Time.** A trace's `t` counts milliseconds from its start, which it does not place in the
///   calendar: `timeUnixNano` is `startUnixNano` plus `t`, rounded to the nanosecond (0 by default,
///   so that the same trace gives the same bytes). 64-bit integers are strings, as the protobuf JSON
///   mapping says.
/// - **Memory.** Events are written as they are read, at most ``recordsPerRequest`` to a request;
///   what is kept is the findings and each process's resource.
package struct OTLPLogsExport {
    /// The most log records in one request (one line of the file).
    package static let recordsPerRequest = OTLPRequestWriter.limit

    /// Writes the OTLP/JSON logs of the trace at `path` (a trace file or JSON Lines), a line at a time.
    ///
    /// - Parameters:
    ///   - configuration: the rules to run, as for `replay TRACE`.
    ///   - customRules: an app's own rules, run beside the catalogue's.
    ///   - startUnixNano: where `t` 0 lies, in nanoseconds since 1970.
    ///   - body: called with each line, newline included.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or what `body` throws.
    package static func write(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [], startUnixNano: UInt64 = 0,
                              _ body: (String) throws -> Void) throws {
        let keyed = try fingerprintedFindings(path, configuration: configuration, customRules: customRules)
        let pass = try OTLPTracePass(path, hashing: false)

        try withoutActuallyEscaping(body) { body in
            var writer = OTLPRequestWriter(.logs, body: body)
            var states = IOSAppStates()
            var next = 0
            var last: (process: String, t: Double) = ("", 0)
            func add(_ record: [JSONMember], t: Double, process: String) throws {
                try writer.add(.object([JSONMember("timeUnixNano", OTLPJSON.time(t, start: startUnixNano))] + record),
                               process: process, resource: pass.resource(process))
            }
            try Replayer.forEachEvent(in: path) { seq, event in
                let process = event.process ?? ""
                try add(record(seq: seq, event, state: states.state(of: event)), t: event.t, process: process)
                while next < keyed.count, keyed[next].finding.seq <= seq {
                    try add(record(keyed[next].finding, fingerprint: keyed[next].fingerprint), t: event.t, process: process)
                    next += 1
                }
                last = (process, event.t)
                return true
            }
            // A finding past the last event (none in the catalogue) still goes out, at the last time.
            for (finding, fingerprint) in keyed[next...] {
                try add(record(finding, fingerprint: fingerprint), t: last.t, process: last.process)
            }
            try writer.flush()
        }
    }

    /// The trace's findings (as `replay TRACE` gives them) with their SARIF fingerprints (numbered
    /// in report order), sorted by seq and then rule, the order they are written in.
    static func fingerprintedFindings(_ path: String, configuration: RuleConfiguration,
                                      customRules: [any LifecycleRule]) throws -> [(finding: Finding, fingerprint: String)] {
        var findings: [Finding] = []
        _ = try Replayer.replay(path, configuration: configuration, customRules: customRules) { findings.append($0) }
        var fingerprints = FindingFingerprints()
        var keyed = findings.map { (finding: $0, fingerprint: fingerprints.next($0)) }  // report order, as SARIF
        keyed.sort { ($0.finding.seq, $0.finding.rule.rawValue) < ($1.finding.seq, $1.finding.rule.rawValue) }
        return keyed
    }

    /// An event's record (without its time); `state` is its `ios.app.state`, if it has one.
    private static func record(seq: UInt64, _ event: LifecycleEvent, state: String?) -> [JSONMember] {
        var attributes = [OTLPJSON.attribute("lifecycle_log.seq", OTLPJSON.integer(seq)),
                          OTLPJSON.attribute("lifecycle_log.event", OTLPJSON.text(event.name))]
        for member in event.jsonMembers.dropFirst(2) where member.name != "process" {  // after `event` and `t`
            attributes.append(OTLPJSON.attribute("lifecycle_log." + member.name, OTLPJSON.value(member.value)))
        }
        if let state { attributes.insert(OTLPJSON.attribute("ios.app.state", OTLPJSON.text(state)), at: 0) }
        return [
            JSONMember("severityNumber", .number("9")),
            JSONMember("severityText", .string("INFO")),
            JSONMember("attributes", .array(attributes)),
            JSONMember("eventName", .string(state == nil ? "lifecycle_log." + event.name : "device.app.lifecycle")),
        ]
    }

    /// A finding's record (without its time, that of its anchor event). A warning is `WARN` (13),
    /// an error `ERROR` (17): the first `SeverityNumber` of each range.
    private static func record(_ finding: Finding, fingerprint: String) -> [JSONMember] {
        let error = finding.severity == .error
        var attributes = [OTLPJSON.attribute("lifecycle_log.rule", OTLPJSON.text(finding.rule.rawValue)),
                          OTLPJSON.attribute("lifecycle_log.severity", OTLPJSON.text(finding.severity.rawValue)),
                          OTLPJSON.attribute("lifecycle_log.fingerprint", OTLPJSON.text(fingerprint)),
                          OTLPJSON.attribute("lifecycle_log.seq", OTLPJSON.integer(finding.seq))]
        if !finding.related.isEmpty {
            attributes.append(OTLPJSON.attribute("lifecycle_log.related", OTLPJSON.integers(finding.related)))
        }
        return [
            JSONMember("severityNumber", .number(error ? "17" : "13")),
            JSONMember("severityText", .string(error ? "ERROR" : "WARN")),
            JSONMember("body", .object([JSONMember("stringValue", .string(finding.message))])),
            JSONMember("attributes", .array(attributes)),
            JSONMember("eventName", .string("lifecycle_log.finding")),
        ]
    }
}
