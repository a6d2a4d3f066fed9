import LifecycleLogRecorder
import LifecycleLogRules

/// A trace as OpenTelemetry spans (`replay export --format otlp-traces`): each run of each
/// recorded process is a trace with a root span `run N` from its `launch` to its end, and each
/// phase a window or the app was in is a child span `<scene> <phase>` (`app <phase>` for the
/// app-level phase), so that a session lines up in any tracing backend beside the app's own spans.
/// One `ExportTraceServiceRequest` per line, as the Collector's `otlpjsonfile` receiver reads them.
///
/// - **Intervals.** A window's span runs from its `phase` event to its next one, its `dismiss`,
///   or its run's end; the app-level phase's likewise. A run ends at its `terminate`, `kill` or
///   `willTerminate`, at the next `launch` of its process (an unrecorded end), or at the trace's
///   last event. Only phases the trace records are spans: a window before its first `phase` has none.
/// - **Ids.** Derived from the trace's content, never random, so the same trace gives the same
///   bytes: the trace id from the process and run number, a span id from the process, run and seq
///   of the event that opened it; hex-encoded, as OTLP/JSON writes them.
/// - **Resources** and **time** as ``OTLPLogsExport`` gives them.
/// - **Memory**: the open spans (one per window and process) and at most
///   ``OTLPLogsExport/recordsPerRequest`` closed ones waiting for their line.
package struct OTLPTracesExport {
    /// An open span.
    private struct Open {
        var name: String
        var spanID: String
        var start: Double
        var window: String?
        var phase: LifecyclePhase
    }

    /// A process's run and its open spans.
    private struct Run {
        var number: Int
        var traceID: String
        var spanID: String
        var start: Double
        var windows: [String: Open] = [:]
        var app: Open?
        /// The scene of each open window, for span names.
        var scenes: [String: String] = [:]
    }

    /// Writes the OTLP/JSON spans of the trace at `path`, a line at a time.
    package static func write(_ path: String, startUnixNano: UInt64 = 0, _ body: (String) throws -> Void) throws {
        var resources: [String: JSONValue] = [:]
        try Replayer.forEachEvent(in: path) { _, event in
            let process = event.process ?? ""
            if resources[process] == nil, case .launch(let launch) = event.kind {
                resources[process] = OTLPLogsExport.resource(process: process, launch: launch, extra: event.extraFields)
            }
            return true
        }
        try withoutActuallyEscaping(body) { body in
            var writer = Writer(startUnixNano: startUnixNano, body: body)
            var runs: [String: Run] = [:]
            var counts: [String: Int] = [:]
            var lastT = 0.0
            func resource(_ process: String) -> JSONValue {
                resources[process] ?? OTLPLogsExport.resource(process: process, launch: nil, extra: [])
            }
            func end(_ process: String, at t: Double) throws {
                guard let run = runs.removeValue(forKey: process) else { return }
                let spans = run.windows.keys.sorted().compactMap { run.windows[$0] } + (run.app.map { [$0] } ?? [])
                for open in spans { try writer.add(span(open, run: run, end: t), process: process, resource: resource(process)) }
                try writer.add(rootSpan(run, end: t), process: process, resource: resource(process))
            }
            try Replayer.forEachEvent(in: path) { seq, event in
                let process = event.process ?? ""
                lastT = event.t
                switch event.kind {
                case .launch:
                    try end(process, at: event.t)
                    let number = (counts[process] ?? 0) + 1
                    counts[process] = number
                    runs[process] = Run(number: number, traceID: id(process, UInt64(number), 0, bytes: 16),
                                        spanID: id(process, UInt64(number), .max, bytes: 8), start: event.t)
                case .terminate, .kill, .delegate(callback: "willTerminate", window: nil):
                    try end(process, at: event.t)
                case .open(let window, let scene, _, _):
                    runs[process]?.scenes[window] = scene
                case .phase(let phase, let window):
                    guard var run = runs[process] else { return true }
                    let opened = Open(name: "\(window.map { run.scenes[$0] ?? $0 } ?? "app") \(phase.rawValue)",
                                      spanID: id(process, UInt64(run.number), seq, bytes: 8), start: event.t, window: window, phase: phase)
                    if let window {
                        if let previous = run.windows[window] { try writer.add(span(previous, run: run, end: event.t), process: process, resource: resource(process)) }
                        run.windows[window] = opened
                    } else {
                        if let previous = run.app { try writer.add(span(previous, run: run, end: event.t), process: process, resource: resource(process)) }
                        run.app = opened
                    }
                    runs[process] = run
                case .dismiss(let window, _):
                    guard var run = runs[process] else { return true }
                    if let previous = run.windows.removeValue(forKey: window) {
                        try writer.add(span(previous, run: run, end: event.t), process: process, resource: resource(process))
                    }
                    run.scenes[window] = nil
                    runs[process] = run
                default:
                    break
                }
                return true
            }
            for process in runs.keys.sorted() { try end(process, at: lastT) }
            try writer.flush()
        }
    }

    /// A deterministic id of `bytes` bytes in hex: FNV-1a 64 over the process's name and two numbers,
    /// once per 8 bytes with a different offset (never all zero, which OTLP reserves for "none").
    static func id(_ process: String, _ a: UInt64, _ b: UInt64, bytes: Int) -> String {
        var out = ""
        for part in 0..<(bytes / 8) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(part)
            func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            for byte in process.utf8 { add(byte) }
            add(0)
            for value in [a, b] { for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
            if hash == 0 { hash = 1 }
            let hex = String(hash, radix: 16)
            out += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return out
    }

    private static func rootSpan(_ run: Run, end: Double) -> (start: Double, end: Double, members: [JSONMember]) {
        (run.start, end, [
            JSONMember("traceId", .string(run.traceID)), JSONMember("spanId", .string(run.spanID)),
            JSONMember("name", .string("run \(run.number)")), JSONMember("kind", .number("1")),
            JSONMember("attributes", .array([OTLPLogsExport.attribute("lifecycle_log.run", .object([JSONMember("intValue", .string("\(run.number)"))]))])),
        ])
    }

    private static func span(_ open: Open, run: Run, end: Double) -> (start: Double, end: Double, members: [JSONMember]) {
        var attributes = [OTLPLogsExport.attribute("lifecycle_log.phase", OTLPLogsExport.text(open.phase.rawValue))]
        if let window = open.window {
            attributes.append(OTLPLogsExport.attribute("lifecycle_log.window", OTLPLogsExport.text(window)))
            if let scene = run.scenes[window] { attributes.append(OTLPLogsExport.attribute("lifecycle_log.scene", OTLPLogsExport.text(scene))) }
        }
        return (open.start, end, [
            JSONMember("traceId", .string(run.traceID)), JSONMember("spanId", .string(open.spanID)),
            JSONMember("parentSpanId", .string(run.spanID)), JSONMember("name", .string(open.name)), JSONMember("kind", .number("1")),
            JSONMember("attributes", .array(attributes)),
        ])
    }

    /// Gathers a process's spans into requests of at most ``OTLPLogsExport/recordsPerRequest``.
    private struct Writer {
        let startUnixNano: UInt64
        let body: (String) throws -> Void
        var process: String?
        var resource: JSONValue = .null
        var spans: [JSONValue] = []

        mutating func add(_ span: (start: Double, end: Double, members: [JSONMember]), process: String, resource: JSONValue) throws {
            if process != self.process || spans.count >= OTLPLogsExport.recordsPerRequest { try flush() }
            self.process = process
            self.resource = resource
            var members = span.members
            let at = members.firstIndex { $0.name == "kind" }.map { $0 + 1 } ?? members.count
            members.insert(contentsOf: [
                JSONMember("startTimeUnixNano", .string(String(OTLPLogsExport.unixNano(span.start, start: startUnixNano)))),
                JSONMember("endTimeUnixNano", .string(String(OTLPLogsExport.unixNano(span.end, start: startUnixNano)))),
            ], at: at)
            spans.append(.object(members))
        }

        mutating func flush() throws {
            guard !spans.isEmpty else { return }
            let request: JSONValue = .object([JSONMember("resourceSpans", .array([.object([
                JSONMember("resource", resource),
                JSONMember("scopeSpans", .array([.object([
                    JSONMember("scope", OTLPLogsExport.scope),
                    JSONMember("spans", .array(spans)),
                ])])),
            ])]))])
            var out: [UInt8] = []
            JSONWriter.write(request, into: &out)
            out.append(UInt8(ascii: "\n"))
            try body(String(decoding: out, as: UTF8.self))
            spans.removeAll(keepingCapacity: true)
        }
    }
}
