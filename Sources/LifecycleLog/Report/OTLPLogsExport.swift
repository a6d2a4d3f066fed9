import LifecycleLogRecorder
import LifecycleLogRules

/// A trace as OpenTelemetry logs: the OTLP/JSON file format that the OpenTelemetry Collector's
/// `otlpjsonfile` receiver reads, one `ExportLogsServiceRequest` per line (issue 32).
///
/// - **Records.** Each event is a log record (severity `INFO`) with its seq, kind and members as
///   attributes under `lifecycle_log.`; an app-level `phase` and a `delegate` `willTerminate` of a
///   UIKit platform (iOS, iPadOS, tvOS, visionOS, Mac Catalyst) are the semantic conventions'
///   mobile event `device.app.lifecycle`, with `ios.app.state` (`active`, `inactive`,
///   `background`, `terminate`) in its body, as the conventions ask; every other event is named
///   `lifecycle_log.` and its kind. Each finding is a record `lifecycle_log.finding` right after its
///   anchor event, with its severity (`WARN`, `ERROR`), rule, fingerprint (`lifecycleFindingHash/v2`,
///   as SARIF's), seq and related seqs, its message as the body.
/// - **Resources.** One per recorded process, from the process's first `launch`: `service.name`
///   (the launch's `app`, else the process's name, else `app`), `service.version` (its `build`),
///   `os.name` (the platform) and `os.version` (its `os`), plus `lifecycle_log.process`. A trace
///   records no device model, so `device.model.identifier` is written only from a launch member
///   `deviceModel` a recorder added.
/// - **Time.** A trace's `t` counts milliseconds from its start, which it does not place in the
///   calendar: `timeUnixNano` is `startUnixNano` plus `t`, rounded to the nanosecond (0 by default,
///   so that the same trace gives the same bytes). 64-bit integers are strings, as the protobuf JSON
///   mapping says.
/// - **Memory.** Events are written as they are read, at most ``recordsPerRequest`` to a request;
///   what is kept is the findings and each process's resource.
package struct OTLPLogsExport {
    /// The most log records in one request (one line of the file).
    package static let recordsPerRequest = 512

    /// The instrumentation scope of every record.
    static let scope: JSONValue = .object([JSONMember("name", .string("LifecycleLog")),
                                           JSONMember("version", .string(LifecycleLogVersion.current))])

    /// Writes the OTLP/JSON logs of the trace at `path` (a trace file or JSON Lines), a line at a time.
    ///
    /// - Parameters:
    ///   - configuration: the rules to run, as for `replay TRACE`.
    ///   - customRules: an app's own rules, run beside the catalogue's.
    ///   - startUnixNano: where `t` 0 lies, in nanoseconds since 1970.
    ///   - body: called with each line, newline included.
    package static func write(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                              customRules: [any LifecycleRule] = [], startUnixNano: UInt64 = 0,
                              _ body: (String) throws -> Void) throws {
        var findings: [Finding] = []
        _ = try Replayer.replay(path, configuration: configuration, customRules: customRules) { findings.append($0) }
        var fingerprints = FindingFingerprints()
        var keyed = findings.map { (finding: $0, fingerprint: fingerprints.next($0)) }  // report order, as SARIF
        keyed.sort { ($0.finding.seq, $0.finding.rule.rawValue) < ($1.finding.seq, $1.finding.rule.rawValue) }

        // Each process's resource, from its first launch (a pass that keeps one entry per process).
        var resources: [String: JSONValue] = [:]
        try Replayer.forEachEvent(in: path) { _, event in
            let process = event.process ?? ""
            if resources[process] == nil, case .launch(let launch) = event.kind {
                resources[process] = resource(process: process, launch: launch, extra: event.extraFields)
            }
            return true
        }

        try withoutActuallyEscaping(body) { body in
            var writer = Writer(startUnixNano: startUnixNano, body: body)
            var next = 0
            var platforms: [String: Platform] = [:]  // each process's, from its latest launch
            try Replayer.forEachEvent(in: path) { seq, event in
                let process = event.process ?? ""
                if case .launch(let launch) = event.kind { platforms[process] = launch.platform }
                try writer.add(record(seq: seq, event, platform: platforms[process]), process: process,
                               resource: resources[process] ?? resource(process: process, launch: nil, extra: []))
                while next < keyed.count, keyed[next].finding.seq <= seq {
                    let (finding, fingerprint) = keyed[next]
                    try writer.add(record(finding, fingerprint: fingerprint, t: event.t), process: process,
                                   resource: resources[process] ?? resource(process: process, launch: nil, extra: []))
                    next += 1
                }
                return true
            }
            // A finding past the last event (none in the catalogue) still goes out, at the last time.
            for (finding, fingerprint) in keyed[next...] {
                try writer.add(record(finding, fingerprint: fingerprint, t: writer.lastT), process: writer.process ?? "",
                               resource: writer.resource)
            }
            try writer.flush()
        }
    }

    /// Gathers a process's records into requests of at most ``recordsPerRequest``.
    private struct Writer {
        let startUnixNano: UInt64
        let body: (String) throws -> Void
        var process: String?
        var resource: JSONValue = .null
        var records: [JSONValue] = []
        /// The time of the last record.
        var lastT: Double = 0

        mutating func add(_ record: (t: Double, members: [JSONMember]), process: String, resource: JSONValue) throws {
            if process != self.process || records.count >= OTLPLogsExport.recordsPerRequest { try flush() }
            self.process = process
            lastT = record.t
            self.resource = resource
            records.append(.object([JSONMember("timeUnixNano", .string(String(OTLPLogsExport.unixNano(record.t, start: startUnixNano))))] + record.members))
        }

        mutating func flush() throws {
            guard !records.isEmpty else { return }
            let request: JSONValue = .object([JSONMember("resourceLogs", .array([.object([
                JSONMember("resource", resource),
                JSONMember("scopeLogs", .array([.object([
                    JSONMember("scope", OTLPLogsExport.scope),
                    JSONMember("logRecords", .array(records)),
                ])])),
            ])]))])
            var out: [UInt8] = []
            JSONWriter.write(request, into: &out)
            out.append(UInt8(ascii: "\n"))
            try body(String(decoding: out, as: UTF8.self))
            records.removeAll(keepingCapacity: true)
        }
    }

    /// `start` plus `t` milliseconds in nanoseconds, rounded; the largest 64-bit value for a time
    /// beyond it (a `t` of more than 584 years).
    static func unixNano(_ t: Double, start: UInt64) -> UInt64 {
        let ns = (t * 1_000_000).rounded()
        guard ns < 18_446_744_073_709_549_568 else { return .max }  // the largest double below 2^64
        let (sum, overflow) = start.addingReportingOverflow(UInt64(ns))
        return overflow ? .max : sum
    }

    /// The platforms whose app-level states are UIKit's, which `ios.app.state` names.
    static func isUIKit(_ platform: Platform?) -> Bool {
        switch platform {
        case .iOS?, .iPadOS?, .tvOS?, .visionOS?, .macCatalyst?: return true
        default: return false
        }
    }

    static func resource(process: String, launch: LifecycleEvent.Launch?, extra: [JSONMember]) -> JSONValue {
        var attributes: [JSONValue] = [attribute("service.name", text(launch?.app ?? (process.isEmpty ? "app" : process)))]
        if let build = launch?.build { attributes.append(attribute("service.version", text(build))) }
        if let platform = launch?.platform { attributes.append(attribute("os.name", text(platform.rawValue))) }
        if let os = launch?.os { attributes.append(attribute("os.version", text(os))) }
        if let model = extra.first(where: { $0.name == "deviceModel" }), case .string(let name) = model.value {
            attributes.append(attribute("device.model.identifier", text(name)))
        }
        attributes.append(attribute("lifecycle_log.process", text(process)))
        return .object([JSONMember("attributes", .array(attributes))])
    }

    /// An event's record (without its time), and its `t`; `platform` is that of its process's
    /// latest launch.
    private static func record(seq: UInt64, _ event: LifecycleEvent, platform: Platform?) -> (t: Double, members: [JSONMember]) {
        var attributes = [attribute("lifecycle_log.seq", integer(seq)), attribute("lifecycle_log.event", text(event.name))]
        for member in event.jsonMembers.dropFirst(2) where member.name != "process" {  // after `event` and `t`
            attributes.append(attribute("lifecycle_log." + member.name, value(member.value)))
        }
        var members: [JSONMember] = []
        var eventName = "lifecycle_log." + event.name
        var state: String?
        switch event.kind {
        case .phase(let phase, window: nil):
            state = phase.rawValue
        case .delegate(callback: "willTerminate", window: nil):
            state = "terminate"
        default:
            break
        }
        if let state, isUIKit(platform) {
            eventName = "device.app.lifecycle"
            members.append(JSONMember("body", .object([JSONMember("kvlistValue", .object([JSONMember("values", .array([
                attribute("ios.app.state", text(state)),
            ]))]))])))
        }
        members.insert(contentsOf: [JSONMember("severityNumber", .number("9")), JSONMember("severityText", .string("INFO"))], at: 0)
        members.append(JSONMember("attributes", .array(attributes)))
        members.append(JSONMember("eventName", .string(eventName)))
        return (event.t, members)
    }

    /// A finding's record (without its time), at `t`, the time of its anchor event.
    private static func record(_ finding: Finding, fingerprint: String, t: Double) -> (t: Double, members: [JSONMember]) {
        let error = finding.severity == .error
        var attributes = [attribute("lifecycle_log.rule", text(finding.rule.rawValue)),
                          attribute("lifecycle_log.fingerprint", text(fingerprint)),
                          attribute("lifecycle_log.seq", integer(finding.seq))]
        if !finding.related.isEmpty {
            attributes.append(attribute("lifecycle_log.related", .object([JSONMember("arrayValue", .object([
                JSONMember("values", .array(finding.related.map(integer))),
            ]))])))
        }
        return (t, [
            JSONMember("severityNumber", .number(error ? "17" : "13")),
            JSONMember("severityText", .string(error ? "ERROR" : "WARN")),
            JSONMember("body", .object([JSONMember("stringValue", .string(finding.message))])),
            JSONMember("attributes", .array(attributes)),
            JSONMember("eventName", .string("lifecycle_log.finding")),
        ])
    }

    /// A `KeyValue`.
    static func attribute(_ key: String, _ value: JSONValue) -> JSONValue {
        .object([JSONMember("key", .string(key)), JSONMember("value", value)])
    }

    /// An `AnyValue` holding a string.
    static func text(_ s: String) -> JSONValue { .object([JSONMember("stringValue", .string(s))]) }

    /// An `AnyValue` holding a 64-bit integer (a string, as the protobuf JSON mapping writes them).
    static func integer(_ i: UInt64) -> JSONValue { .object([JSONMember("intValue", .string(String(i)))]) }

    /// The `AnyValue` of a member's JSON value: strings, booleans and whole numbers as themselves,
    /// other numbers as doubles, lists and objects as their JSON text.
    static func value(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s): return .object([JSONMember("stringValue", .string(s))])
        case .bool(let b): return .object([JSONMember("boolValue", .bool(b))])
        case .number(let literal):
            if let i = Int64(literal) { return .object([JSONMember("intValue", .string(String(i)))]) }
            if let d = Double(literal), d.isFinite { return .object([JSONMember("doubleValue", .number(JSONWriter.number(d)))]) }
            return .object([JSONMember("stringValue", .string(literal))])
        case .null, .array, .object:
            var out: [UInt8] = []
            JSONWriter.write(v, into: &out)
            return .object([JSONMember("stringValue", .string(String(decoding: out, as: UTF8.self)))])
        }
    }
}
