import LifecycleLogRecorder
import LifecycleLogRules

/// A trace as OpenTelemetry spans: OTLP/JSON `ExportTraceServiceRequest`s, one per line, for the
/// Collector's `otlpjsonfile` receiver (`replay export --format otlp --otlp-signal traces`).
///
/// - **A trace per run.** Each run of each process (from its `launch` to its `terminate`, `kill`,
///   its last event before its next `launch`, or the end of the trace) is one OpenTelemetry trace
///   whose root span is named `run`, with `lifecycle_log.run` (the process's run number),
///   `lifecycle_log.seq` (the launch's) and `lifecycle_log.end` (`terminate`, `kill`,
///   `willTerminate`, `unrecorded` or `end of trace`).
/// - **Windows and their phases.** Each window is a span `window <scene>` under its run, from its
///   `open` to its `dismiss` or the end of the run, with `lifecycle_log.window`,
///   `lifecycle_log.scene` and `lifecycle_log.value`; each phase it is in (its own, or the app's
///   until it has one, as the rules see it) is a span named `active`, `inactive` or `background`
///   under it. The app phase's spans (`app active`, …) are children of the run. These are the
///   slices `--format perfetto` draws.
/// - **Findings** are span events of their run (named by the rule, with the severity, fingerprint,
///   seq, related seqs and message as attributes) and make the run's status `ERROR` when one is an
///   error. A finding while its process has no run (`event-before-launch`) has no span to go in:
///   the logs carry it.
/// - **Ids.** Trace ids are 16 bytes from a digest of the trace's events, `--start-unix-ms`, the
///   process and the run number, so that the same trace gives the same bytes and two traces give
///   different ids; span ids count from 1 in the file. Both are lowercase hex, as OTLP/JSON asks.
/// - **Time.** As in ``OTLPLogsExport``: `startUnixNano` plus `t`.
package enum OTLPTracesExport {
    /// Writes the OTLP/JSON spans of the trace at `path` (a trace file or JSON Lines), a line at a time.
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
        let keyed = try OTLPLogsExport.fingerprintedFindings(path, configuration: configuration, customRules: customRules)
        let pass = try OTLPTracePass(path, hashing: true)
        try withoutActuallyEscaping(body) { body in
            var writer = SpanWriter(findings: keyed, pass: pass, configuration: configuration,
                                    start: startUnixNano, requests: OTLPRequestWriter(.traces, body: body))
            try Replayer.forEachEvent(in: path) { seq, event in
                try writer.apply(seq: seq, event)
                return true
            }
            try writer.finish()
        }
    }
}

/// A span that has begun and not yet been written.
private struct OpenSpan {
    /// The trace's id, 32 hex digits.
    var traceID: String
    /// The span's id (written as 16 hex digits).
    var id: UInt64
    /// The parent span's id; `nil` for a run, the root of its trace.
    var parent: UInt64?
    /// The span's name.
    var name: String
    /// The `t` it began at.
    var start: Double
    /// Its `KeyValue`s.
    var attributes: [JSONValue]
    /// Its span events (findings).
    var events: [JSONValue] = []
    /// How many of `events` are error findings (the span's status is then `ERROR`).
    var errors = 0
}

/// Follows the reducer event by event, as the Perfetto export does, and writes each span when it
/// ends. The reducer's model is that of the process of the event it applied last, so each process's
/// open spans are kept here (``Track``).
private struct SpanWriter {
    var reducer: LifecycleReducer
    let findings: [(finding: Finding, fingerprint: String)]
    var nextFinding = 0
    let pass: OTLPTracePass
    let start: UInt64
    var requests: OTLPRequestWriter
    var tracks: [String: Track] = [:]
    var nextSpanID: UInt64 = 1
    var lastT: Double = 0

    /// One process's run and the spans open in it.
    struct Track {
        var run: OpenSpan?
        var runs = 0
        /// Whether a run of the process was going after its last event.
        var running = false
        /// Whether the run's `willTerminate` came (a next `launch` then ends it cleanly).
        var willTerminate = false
        /// The `t` of the process's last event.
        var lastEventT: Double = 0
        /// Open windows by instance: the window's span, its phase's span and that phase.
        var windows: [Int: (window: OpenSpan, phase: OpenSpan, value: LifecyclePhase)] = [:]
        var app: (span: OpenSpan, value: LifecyclePhase)?
    }

    init(findings: [(finding: Finding, fingerprint: String)], pass: OTLPTracePass, configuration: RuleConfiguration,
         start: UInt64, requests: OTLPRequestWriter) {
        reducer = LifecycleReducer(configuration: configuration)
        self.findings = findings
        self.pass = pass
        self.start = start
        self.requests = requests
    }

    // MARK: Spans

    /// A new span of `process`'s run (`parent` nil: the run itself, in a new trace).
    mutating func begin(_ name: String, process: String, parent: OpenSpan?, at t: Double, _ attributes: [JSONValue]) -> OpenSpan {
        defer { nextSpanID += 1 }
        let traceID = parent?.traceID ?? Self.traceID(pass.digest, start: start, process: process, run: tracks[process]?.runs ?? 0)
        return OpenSpan(traceID: traceID, id: nextSpanID, parent: parent?.id, name: name, start: t, attributes: attributes)
    }

    /// Writes `span`, ended at `t`.
    mutating func end(_ span: OpenSpan, process: String, at t: Double) throws {
        var members = [JSONMember("traceId", .string(span.traceID)), JSONMember("spanId", .string(OTLPJSON.hex(span.id)))]
        if let parent = span.parent { members.append(JSONMember("parentSpanId", .string(OTLPJSON.hex(parent)))) }
        members += [
            JSONMember("name", .string(span.name)),
            JSONMember("kind", .number("1")),  // SPAN_KIND_INTERNAL
            JSONMember("startTimeUnixNano", OTLPJSON.time(span.start, start: start)),
            JSONMember("endTimeUnixNano", OTLPJSON.time(max(t, span.start), start: start)),
            JSONMember("attributes", .array(span.attributes)),
        ]
        if !span.events.isEmpty { members.append(JSONMember("events", .array(span.events))) }
        if span.errors > 0 {
            members.append(JSONMember("status", .object([
                JSONMember("message", .string(span.errors == 1 ? "1 error finding" : "\(span.errors) error findings")),
                JSONMember("code", .number("2")),  // STATUS_CODE_ERROR
            ])))
        }
        try requests.add(.object(members), process: process, resource: pass.resource(process))
    }

    /// The trace id of `process`'s run `run`: the trace's digest, then a hash of it with the start
    /// time, the process and the run number.
    static func traceID(_ digest: (UInt64, UInt64), start: UInt64, process: String, run: Int) -> String {
        var hash = digest.1
        func add(_ bytes: some Sequence<UInt8>) { for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 } }
        add(withUnsafeBytes(of: start.littleEndian, Array.init))
        add(process.utf8)
        add([0])
        add(String(run).utf8)
        return OTLPJSON.hex(digest.0) + OTLPJSON.hex(hash == 0 ? 1 : hash)
    }

    // MARK: Following the trace

    mutating func apply(seq: UInt64, _ event: LifecycleEvent) throws {
        let process = event.process ?? ""
        let t = event.t
        lastT = t
        if tracks[process] == nil { tracks[process] = Track() }
        if case .mark = event.kind {
            reducer.apply(seq: seq, event)  // a mark belongs to no run and changes nothing
            attachFindings(seq: seq, process: process, at: t)
            return
        }
        let hadRun = tracks[process]!.running
        var launchSeq: UInt64?
        if case .launch = event.kind {
            launchSeq = seq
            if hadRun {  // the process died some time after its last event
                let at = tracks[process]!.lastEventT
                try endRun(process, at: at, end: tracks[process]!.willTerminate ? "willTerminate" : "unrecorded")
            }
        }
        reducer.apply(seq: seq, event)
        let running = reducer.isRunning
        tracks[process]!.running = running
        tracks[process]!.lastEventT = t
        if case .delegate(callback: "willTerminate", window: nil) = event.kind { tracks[process]!.willTerminate = true }
        if let launchSeq {
            tracks[process]!.runs += 1
            tracks[process]!.willTerminate = false
            let runs = tracks[process]!.runs
            tracks[process]!.run = begin("run", process: process, parent: nil, at: t, [
                OTLPJSON.attribute("lifecycle_log.run", OTLPJSON.integer(UInt64(runs))),
                OTLPJSON.attribute("lifecycle_log.seq", OTLPJSON.integer(launchSeq)),
            ])
        }
        if running { try sync(process, at: t) }
        attachFindings(seq: seq, process: process, at: t)
        if hadRun && !running { try endRun(process, at: t, end: event.name) }  // terminate or kill
    }

    /// Adds the findings at `seq` to the run of `process` as span events.
    mutating func attachFindings(seq: UInt64, process: String, at t: Double) {
        while nextFinding < findings.count, findings[nextFinding].finding.seq <= seq {
            let (finding, fingerprint) = findings[nextFinding]
            nextFinding += 1
            guard tracks[process]?.run != nil else { continue }
            var attributes = [OTLPJSON.attribute("lifecycle_log.rule", OTLPJSON.text(finding.rule.rawValue)),
                              OTLPJSON.attribute("lifecycle_log.severity", OTLPJSON.text(finding.severity.rawValue)),
                              OTLPJSON.attribute("lifecycle_log.fingerprint", OTLPJSON.text(fingerprint)),
                              OTLPJSON.attribute("lifecycle_log.seq", OTLPJSON.integer(finding.seq))]
            if !finding.related.isEmpty {
                attributes.append(OTLPJSON.attribute("lifecycle_log.related", OTLPJSON.integers(finding.related)))
            }
            attributes.append(OTLPJSON.attribute("lifecycle_log.message", OTLPJSON.text(finding.message)))
            tracks[process]!.run!.events.append(.object([
                JSONMember("timeUnixNano", OTLPJSON.time(t, start: start)),
                JSONMember("name", .string(finding.rule.rawValue)),
                JSONMember("attributes", .array(attributes)),
            ]))
            if finding.severity == .error { tracks[process]!.run!.errors += 1 }
        }
    }

    /// Brings `process`'s open spans in line with the reducer's windows and phases after an event of it.
    mutating func sync(_ process: String, at t: Double) throws {
        guard let run = tracks[process]!.run else { return }
        let open = reducer.openWindows
        let instances = Set(open.map(\.instance))
        for (instance, spans) in tracks[process]!.windows.sorted(by: { $0.key < $1.key }) where !instances.contains(instance) {
            try end(spans.phase, process: process, at: t)
            try end(spans.window, process: process, at: t)
            tracks[process]!.windows[instance] = nil
        }
        for window in open.sorted(by: { $0.instance < $1.instance }) {
            let phase = reducer.phase(of: window)
            if var spans = tracks[process]!.windows[window.instance] {
                guard spans.value != phase else { continue }
                try end(spans.phase, process: process, at: t)
                spans.phase = begin(phase.rawValue, process: process, parent: spans.window, at: t,
                                    spans.window.attributes + [OTLPJSON.attribute("lifecycle_log.phase", OTLPJSON.text(phase.rawValue))])
                spans.value = phase
                tracks[process]!.windows[window.instance] = spans
            } else {
                let id = reducer.names[window.id], scene = reducer.names[window.scene]
                var attributes = [OTLPJSON.attribute("lifecycle_log.window", OTLPJSON.text(id)),
                                  OTLPJSON.attribute("lifecycle_log.scene", OTLPJSON.text(scene))]
                if let value = window.canonicalValue { attributes.append(OTLPJSON.attribute("lifecycle_log.value", OTLPJSON.text(value))) }
                let windowSpan = begin("window " + scene, process: process, parent: run, at: t, attributes)
                let phaseSpan = begin(phase.rawValue, process: process, parent: windowSpan, at: t,
                                      attributes + [OTLPJSON.attribute("lifecycle_log.phase", OTLPJSON.text(phase.rawValue))])
                tracks[process]!.windows[window.instance] = (windowSpan, phaseSpan, phase)
            }
        }
        let app = reducer.appPhase
        if let current = tracks[process]!.app, current.value == app { return }
        if let current = tracks[process]!.app { try end(current.span, process: process, at: t) }
        tracks[process]!.app = (begin("app " + app.rawValue, process: process, parent: run, at: t,
                                      [OTLPJSON.attribute("lifecycle_log.phase", OTLPJSON.text(app.rawValue))]), app)
    }

    /// Ends every open span of `process` at `t`: its windows' (in instance order), the app phase's,
    /// then the run's, with `lifecycle_log.end` `end`.
    mutating func endRun(_ process: String, at t: Double, end reason: String) throws {
        for (_, spans) in tracks[process]!.windows.sorted(by: { $0.key < $1.key }) {
            try end(spans.phase, process: process, at: t)
            try end(spans.window, process: process, at: t)
        }
        tracks[process]!.windows.removeAll()
        if let app = tracks[process]!.app { try end(app.span, process: process, at: t) }
        tracks[process]!.app = nil
        if var run = tracks[process]!.run {
            run.attributes.append(OTLPJSON.attribute("lifecycle_log.end", OTLPJSON.text(reason)))
            try end(run, process: process, at: t)
        }
        tracks[process]!.run = nil
        tracks[process]!.running = false
    }

    /// Ends what is still open at the end of the trace, process by process in name order, and
    /// writes the last request.
    mutating func finish() throws {
        for process in tracks.keys.sorted() where tracks[process]!.run != nil {
            try endRun(process, at: lastT, end: "end of trace")
        }
        try requests.flush()
    }
}
