/// A trace as Chrome trace-event JSON, the format Perfetto
/// (ui.perfetto.dev) and `chrome://tracing` open: `replay export TRACE
/// --format perfetto`.
///
/// - Each run is a process (`pid` = the run's number, named by
///   `process_name` metadata: "run 2 · iPadOS · com.example.Notes"); events
///   before the first launch are in process 0.
/// - In a run, thread 0 is the app phase and each window is a thread of its
///   own (`tid` from 1 in the order windows first open in the run), named by
///   `thread_name` metadata: "w2 · note 42" (window id, scene, value).
/// - Phases are complete slices (`"ph":"X"`, named `active`, `inactive` or
///   `background`), a window's on its thread and the app phase on thread 0.
///   `ts` and `dur` are microseconds: the trace's `t` (milliseconds) × 1000.
/// - Findings are thread-scoped instant events (`"ph":"i","s":"t"`) on the
///   thread of their event (the app thread when it names no window), in
///   category `finding`, named by the rule, with `rule`, `severity`, `seq`,
///   `related` and `message` in `args`.
/// - Every other event is an instant too, in a category named by its kind
///   (`mark`, `write`, `open`, …), with its seq and fields in `args`; marks,
///   launches and terminates are process-scoped (`"s":"p"`).
///
/// The output is one trace-event object per line, in trace order (a slice
/// is written when it ends), and the same trace always gives the same bytes.
/// Memory holds the trace's findings and the reducer's state, not its events.
public enum TraceEventExport {
    /// Writes the trace at `path` (`.lmdb` or `.jsonl`) as trace-event JSON to
    /// `body`, in pieces of about 64 KB.
    ///
    /// ```swift
    /// var json = ""
    /// try TraceEventExport.write("session.lmdb") { json += $0 }
    /// ```
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or what `body` throws.
    public static func write(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                             _ body: (String) throws -> Void) throws {
        var findings: [Finding] = []
        _ = try Replayer.replay(path, configuration: configuration) { findings.append($0) }
        var writer = TraceEventWriter(findings: findings, configuration: configuration)
        writer.start(source: ExpectedReport.fileName(path))
        try Replayer.forEachEvent(in: path) { seq, event in
            writer.apply(seq: seq, event)
            if writer.out.count >= 1 << 16 { try body(writer.take()) }
            return true
        }
        writer.finish()
        try body(writer.take())
    }
}

/// Follows the reducer event by event and writes the trace-event objects.
private struct TraceEventWriter {
    var reducer: LifecycleReducer
    let findings: [Finding]
    var nextFinding = 0
    var out: [UInt8] = []
    var first = true
    /// The current run's number (0 before the first launch).
    var pid = 0
    var namedOutside = false
    /// This run's threads by window id, and the next free one.
    var tids: [String: Int] = [:]
    var nextTid = 1
    /// Open phase slices: by window instance, and the app's.
    var slices: [Int: (tid: Int, id: String, scene: String, phase: ScenePhase, since: Double)] = [:]
    var appSlice: (phase: ScenePhase, since: Double)?
    var lastT: Double = 0

    init(findings: [Finding], configuration: RuleConfiguration) {
        reducer = LifecycleReducer(configuration: configuration)
        self.findings = findings
    }

    mutating func start(source: String) {
        raw("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"format\":\"lifecycle-trace\",\"source\":")
        JSONWriter.writeString(source, into: &out)
        raw("},\"traceEvents\":[")
    }

    mutating func finish() {
        closeAll(at: lastT)
        raw("\n]}\n")
    }

    /// What was written since the last call.
    mutating func take() -> String {
        defer { out.removeAll(keepingCapacity: true) }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Writing objects

    mutating func raw(_ s: String) { out.append(contentsOf: s.utf8) }
    mutating func string(_ s: String) { JSONWriter.writeString(s, into: &out) }

    /// Milliseconds as microseconds, exact to the nanosecond for `t` below 10^9 ms.
    mutating func micros(_ t: Double) {
        let us = abs(t) < 1e9 ? (t * 1_000_000).rounded() / 1000 : t * 1000
        raw(JSONWriter.number(us))
    }

    /// Opens one trace-event object with its common members.
    mutating func begin(_ ph: String, tid: Int, name: String) {
        raw(first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"")
        first = false
        raw(ph)
        raw("\",\"pid\":\(pid),\"tid\":\(tid),\"name\":")
        string(name)
    }

    mutating func metadata(_ kind: String, tid: Int, name: String) {
        begin("M", tid: tid, name: kind)
        raw(",\"args\":{\"name\":")
        string(name)
        raw("}}")
    }

    mutating func slice(tid: Int, phase: ScenePhase, from: Double, to: Double, window: (id: String, scene: String)?) {
        guard to > from else { return }
        begin("X", tid: tid, name: phase.rawValue)
        raw(window == nil ? ",\"cat\":\"app-phase\",\"ts\":" : ",\"cat\":\"phase\",\"ts\":")
        micros(from)
        raw(",\"dur\":")
        let start = abs(from) < 1e9 ? (from * 1_000_000).rounded() / 1000 : from * 1000
        let end = abs(to) < 1e9 ? (to * 1_000_000).rounded() / 1000 : to * 1000
        raw(JSONWriter.number(end - start))
        if let window {
            raw(",\"args\":{\"window\":"); string(window.id); raw(",\"scene\":"); string(window.scene); raw("}")
        }
        raw("}")
    }

    mutating func instant(tid: Int, name: String, category: String, scope: String, t: Double, args: [JSONMember]) {
        begin("i", tid: tid, name: name)
        raw(",\"cat\":"); string(category)
        raw(",\"s\":\"\(scope)\",\"ts\":")
        micros(t)
        raw(",\"args\":")
        JSONWriter.writeObject(args, into: &out)
        raw("}")
    }

    // MARK: Following the trace

    mutating func apply(seq: UInt64, _ event: Event) {
        let t = event.t
        let hadRun = reducer.isRunning
        if case .launch = event.kind, hadRun {
            // The process died some time after its last event: its slices end there.
            closeAll(at: lastT)
            instant(tid: 0, name: "ended without terminate", category: "run", scope: "p", t: lastT, args: [])
        }
        // The thread of the event's window, looked up before the event (a dismiss forgets the window).
        var tid = event.window.flatMap { tids[$0] } ?? 0
        reducer.apply(seq: seq, event)
        if case .launch(let launch) = event.kind {
            pid = reducer.runCount
            tids = [:]
            nextTid = 1
            var name = "run \(pid) · \(launch.platform.rawValue)"
            if let app = launch.app { name += " · \(app)" }
            metadata("process_name", tid: 0, name: name)
            begin("M", tid: 0, name: "process_sort_index"); raw(",\"args\":{\"sort_index\":\(pid)}}")
            metadata("thread_name", tid: 0, name: "app phase")
        }
        if case .terminate = event.kind, hadRun { closeAll(at: t) }
        if reducer.isRunning { sync(at: t) }
        if tid == 0, let w = event.window, let now = tids[w] { tid = now }  // an open gets its thread in sync
        lastT = t
        if pid == 0, !namedOutside {
            namedOutside = true
            metadata("process_name", tid: 0, name: "outside any run")
        }
        if case .phase = event.kind {} else {
            let scoped: String
            switch event.kind {
            case .launch, .terminate, .mark: scoped = "p"
            default: scoped = "t"
            }
            var name = event.name
            if case .mark(let label) = event.kind { name = label }
            var args = [JSONMember("seq", .number(String(seq)))]
            args += event.jsonMembers.filter { $0.name != "event" && $0.name != "t" }
            instant(tid: tid, name: name, category: event.name, scope: scoped, t: t, args: args)
        }
        while nextFinding < findings.count, findings[nextFinding].seq == seq {
            let f = findings[nextFinding]
            instant(tid: tid, name: f.rule.rawValue, category: "finding", scope: "t", t: t, args: [
                JSONMember("rule", .string(f.rule.rawValue)),
                JSONMember("severity", .string(f.severity.rawValue)),
                JSONMember("seq", .number(String(f.seq))),
                JSONMember("related", .array(f.related.map { .number(String($0)) })),
                JSONMember("message", .string(f.message)),
            ])
            nextFinding += 1
        }
    }

    /// Brings the open slices in line with the reducer's windows and phases after an event.
    mutating func sync(at t: Double) {
        let open = reducer.openWindows
        let openInstances = Set(open.map(\.instance))
        for (instance, s) in slices.sorted(by: { $0.key < $1.key }) where !openInstances.contains(instance) {
            slice(tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
            slices[instance] = nil
        }
        for window in open.sorted(by: { $0.instance < $1.instance }) {
            let phase = reducer.phase(of: window)
            if let s = slices[window.instance] {
                if s.phase != phase {
                    slice(tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
                    slices[window.instance] = (s.tid, s.id, s.scene, phase, t)
                }
            } else {
                let id = reducer.names[window.id], scene = reducer.names[window.scene]
                let tid: Int
                if let known = tids[id] {
                    tid = known
                } else {
                    tid = nextTid
                    nextTid += 1
                    tids[id] = tid
                    var name = "\(id) · \(scene)"
                    if let value = window.canonicalValue { name += " \(value)" }
                    metadata("thread_name", tid: tid, name: name)
                    begin("M", tid: tid, name: "thread_sort_index"); raw(",\"args\":{\"sort_index\":\(tid)}}")
                }
                slices[window.instance] = (tid, id, scene, phase, t)
            }
        }
        let app = reducer.appPhase
        if let s = appSlice {
            if s.phase != app {
                slice(tid: 0, phase: s.phase, from: s.since, to: t, window: nil)
                appSlice = (app, t)
            }
        } else {
            appSlice = (app, t)
        }
    }

    mutating func closeAll(at t: Double) {
        for (_, s) in slices.sorted(by: { $0.key < $1.key }) {
            slice(tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
        }
        slices.removeAll()
        if let s = appSlice { slice(tid: 0, phase: s.phase, from: s.since, to: t, window: nil) }
        appSlice = nil
    }
}
