/// A trace as Chrome trace-event JSON, the format Perfetto
/// (ui.perfetto.dev) and `chrome://tracing` open: `replay export TRACE
/// --format perfetto`.
///
/// - Each process the trace records (trace format 2: the app, a widget, a
///   share extension) is a process of its own (`pid` from 1 in the order the
///   processes first appear, named by `process_name` metadata: the main app
///   "com.example.notes (app)", from its launch's `app`, or "app"; another
///   process by its `process`). A process's runs follow each other on its
///   tracks; each `launch` is a process-scoped instant with the run's number
///   in `args.run`, and a run that ended without `terminate` or `kill` gets an
///   "ended without terminate" instant at the process's last event. A process
///   that only records marks (a test runner) is a process too. The main app
///   sorts first (`process_sort_index` 0, the others their `pid`).
/// - In a process, thread 0 is the app phase and each window id is a thread of
///   its own (`tid` from 1 in the order window ids first open in the process),
///   named by `thread_name` metadata: "w2 · note 42" (window id, scene, value).
/// - Phases are complete slices (`"ph":"X"`, named `active`, `inactive` or
///   `background`), a window's on its thread and the app phase on thread 0.
///   `ts` and `dur` are microseconds: the trace's `t` (milliseconds) × 1000
///   (a `t` so large that this overflows is written as the largest finite
///   number: the output never holds `inf` or `nan`).
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
package enum TraceEventExport {
    /// Writes the trace at `path` (`.lmdb` or `.jsonl`) as trace-event JSON to
    /// `body`, in pieces of about 64 KB.
    ///
    /// ```swift
    /// var json = ""
    /// try TraceEventExport.write("session.lmdb") { json += $0 }
    /// ```
    /// - Parameters:
    ///   - path: a `.lmdb` trace file or a `.jsonl` trace.
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: an app's own rules, whose findings are exported beside the catalogue's.
    ///   - body: called with each piece of the JSON, in order.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or what `body` throws.
    package static func write(_ path: String, configuration: RuleConfiguration = RuleConfiguration(),
                             customRules: [any LifecycleRule] = [],
                             _ body: (String) throws -> Void) throws {
        var findings: [Finding] = []
        _ = try Replayer.replay(path, configuration: configuration, customRules: customRules) { findings.append($0) }
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
///
/// The reducer's model is that of the process of the event it applied last, so the writer
/// keeps each process's open slices itself (``Track``) and reads the reducer's windows and
/// phases only right after an event of that process.
private struct TraceEventWriter {
    var reducer: LifecycleReducer
    let findings: [Finding]
    var nextFinding = 0
    var out: [UInt8] = []
    var first = true
    /// Every process seen, in the order it first appeared (`pid` = index + 1).
    var tracks: [Track] = []
    var trackIndex: [String: Int] = [:]
    var lastT: Double = 0

    /// One process's threads and open slices.
    struct Track {
        var pid: Int
        /// `""` for the main app.
        var process: String
        /// The threads by window id, and the next free one.
        var tids: [String: Int] = [:]
        var nextTid = 1
        /// Open phase slices: by window instance, and the app's.
        var slices: [Int: (tid: Int, id: String, scene: String, phase: LifecyclePhase, since: Double)] = [:]
        var appSlice: (phase: LifecyclePhase, since: Double)?
        /// Whether a run of the process was going after its last event.
        var running = false
        /// The `t` of the process's last event.
        var lastEventT: Double = 0
        /// The number of runs so far.
        var runs = 0
    }

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
        for p in tracks.indices { closeAll(p, at: lastT) }
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

    /// Milliseconds as microseconds, exact to the nanosecond for `t` below 10^9 ms; a product
    /// that overflows becomes the largest finite number, so that JSON never gets `inf`.
    static func microseconds(_ t: Double) -> Double {
        let us = abs(t) < 1e9 ? (t * 1_000_000).rounded() / 1000 : t * 1000
        if us.isFinite { return us }
        return us.isNaN ? 0 : us > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
    }

    /// Opens one trace-event object with its common members.
    mutating func begin(_ ph: String, pid: Int, tid: Int, name: String) {
        raw(first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"")
        first = false
        raw(ph)
        raw("\",\"pid\":\(pid),\"tid\":\(tid),\"name\":")
        string(name)
    }

    mutating func metadata(_ kind: String, pid: Int, tid: Int, name: String) {
        begin("M", pid: pid, tid: tid, name: kind)
        raw(",\"args\":{\"name\":")
        string(name)
        raw("}}")
    }

    mutating func slice(pid: Int, tid: Int, phase: LifecyclePhase, from: Double, to: Double, window: (id: String, scene: String)?) {
        guard to > from else { return }
        let start = Self.microseconds(from), end = Self.microseconds(to)
        begin("X", pid: pid, tid: tid, name: phase.rawValue)
        raw(window == nil ? ",\"cat\":\"app-phase\",\"ts\":" : ",\"cat\":\"phase\",\"ts\":")
        raw(JSONWriter.number(start))
        raw(",\"dur\":")
        raw(JSONWriter.number(end - start))
        if let window {
            raw(",\"args\":{\"window\":"); string(window.id); raw(",\"scene\":"); string(window.scene); raw("}")
        }
        raw("}")
    }

    mutating func instant(pid: Int, tid: Int, name: String, category: String, scope: String, t: Double, args: [JSONMember]) {
        begin("i", pid: pid, tid: tid, name: name)
        raw(",\"cat\":"); string(category)
        raw(",\"s\":\"\(scope)\",\"ts\":")
        raw(JSONWriter.number(Self.microseconds(t)))
        raw(",\"args\":")
        JSONWriter.writeObject(args, into: &out)
        raw("}")
    }

    // MARK: Following the trace

    /// The track of `process` (`""`: the main app), named when it first appears.
    mutating func track(_ process: String, launch: LifecycleEvent.Launch?) -> Int {
        if let p = trackIndex[process] { return p }
        let pid = tracks.count + 1
        tracks.append(Track(pid: pid, process: process))
        trackIndex[process] = tracks.count - 1
        let name = !process.isEmpty ? process : launch?.app.map { "\($0) (app)" } ?? "app"
        metadata("process_name", pid: pid, tid: 0, name: name)
        // The main app sorts first, whoever recorded the first event (a test runner's mark).
        begin("M", pid: pid, tid: 0, name: "process_sort_index"); raw(",\"args\":{\"sort_index\":\(process.isEmpty ? 0 : pid)}}")
        metadata("thread_name", pid: pid, tid: 0, name: "app phase")
        return tracks.count - 1
    }

    mutating func apply(seq: UInt64, _ event: LifecycleEvent) {
        let t = event.t
        lastT = t
        var launch: LifecycleEvent.Launch?
        if case .launch(let l) = event.kind { launch = l }
        let p = track(event.process ?? "", launch: launch)
        let pid = tracks[p].pid
        let isMark: Bool
        if case .mark = event.kind { isMark = true } else { isMark = false }
        // The thread of the event's window, looked up before the event (a dismiss forgets the window).
        var tid = event.window.flatMap { tracks[p].tids[$0] } ?? 0
        var runArgs: [JSONMember] = []
        if isMark {
            reducer.apply(seq: seq, event)  // a mark belongs to no run and changes nothing
        } else {
            let hadRun = tracks[p].running
            if launch != nil, hadRun {
                // The process died some time after its last event: its slices end there.
                closeAll(p, at: tracks[p].lastEventT)
                instant(pid: pid, tid: 0, name: "ended without terminate", category: "run", scope: "p", t: tracks[p].lastEventT, args: [])
            }
            // The reducer now works on this event's process: its windows and phases are this process's.
            reducer.apply(seq: seq, event)
            let running = reducer.isRunning
            tracks[p].running = running
            tracks[p].lastEventT = t
            if launch != nil {
                tracks[p].runs += 1
                runArgs = [JSONMember("run", .number(String(tracks[p].runs)))]
            }
            if hadRun && !running { closeAll(p, at: t) }  // terminate or kill
            if running { sync(p, at: t) }
            if tid == 0, let w = event.window, let now = tracks[p].tids[w] { tid = now }  // an open gets its thread in sync
        }
        if case .phase = event.kind {} else {
            let scoped: String
            switch event.kind {
            case .launch, .terminate, .kill, .mark: scoped = "p"
            default: scoped = "t"
            }
            var name = event.name
            if case .mark(let label) = event.kind { name = label }
            var args = [JSONMember("seq", .number(String(seq)))] + runArgs
            args += event.jsonMembers.filter { $0.name != "event" && $0.name != "t" }
            instant(pid: pid, tid: tid, name: name, category: event.name, scope: scoped, t: t, args: args)
        }
        while nextFinding < findings.count, findings[nextFinding].seq == seq {
            let f = findings[nextFinding]
            instant(pid: pid, tid: tid, name: f.rule.rawValue, category: "finding", scope: "t", t: t, args: [
                JSONMember("rule", .string(f.rule.rawValue)),
                JSONMember("severity", .string(f.severity.rawValue)),
                JSONMember("seq", .number(String(f.seq))),
                JSONMember("related", .array(f.related.map { .number(String($0)) })),
                JSONMember("message", .string(f.message)),
            ])
            nextFinding += 1
        }
    }

    /// Brings process `p`'s open slices in line with the reducer's windows and phases after an event of `p`.
    mutating func sync(_ p: Int, at t: Double) {
        let pid = tracks[p].pid
        let open = reducer.openWindows
        let openInstances = Set(open.map(\.instance))
        for (instance, s) in tracks[p].slices.sorted(by: { $0.key < $1.key }) where !openInstances.contains(instance) {
            slice(pid: pid, tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
            tracks[p].slices[instance] = nil
        }
        for window in open.sorted(by: { $0.instance < $1.instance }) {
            let phase = reducer.phase(of: window)
            if let s = tracks[p].slices[window.instance] {
                if s.phase != phase {
                    slice(pid: pid, tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
                    tracks[p].slices[window.instance] = (s.tid, s.id, s.scene, phase, t)
                }
            } else {
                let id = reducer.names[window.id], scene = reducer.names[window.scene]
                let tid: Int
                if let known = tracks[p].tids[id] {
                    tid = known
                } else {
                    tid = tracks[p].nextTid
                    tracks[p].nextTid += 1
                    tracks[p].tids[id] = tid
                    var name = "\(id) · \(scene)"
                    if let value = window.canonicalValue { name += " \(value)" }
                    metadata("thread_name", pid: pid, tid: tid, name: name)
                    begin("M", pid: pid, tid: tid, name: "thread_sort_index"); raw(",\"args\":{\"sort_index\":\(tid)}}")
                }
                tracks[p].slices[window.instance] = (tid, id, scene, phase, t)
            }
        }
        let app = reducer.appPhase
        if let s = tracks[p].appSlice {
            if s.phase != app {
                slice(pid: pid, tid: 0, phase: s.phase, from: s.since, to: t, window: nil)
                tracks[p].appSlice = (app, t)
            }
        } else {
            tracks[p].appSlice = (app, t)
        }
    }

    mutating func closeAll(_ p: Int, at t: Double) {
        let pid = tracks[p].pid
        for (_, s) in tracks[p].slices.sorted(by: { $0.key < $1.key }) {
            slice(pid: pid, tid: s.tid, phase: s.phase, from: s.since, to: t, window: (s.id, s.scene))
        }
        tracks[p].slices.removeAll()
        if let s = tracks[p].appSlice { slice(pid: pid, tid: 0, phase: s.phase, from: s.since, to: t, window: nil) }
        tracks[p].appSlice = nil
    }
}
