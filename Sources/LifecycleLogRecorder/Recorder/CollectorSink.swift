internal import LifecycleLogPlatform
import Dispatch

/// A sink that streams events over TCP to a collector (`replay record --listen
/// HOST:PORT TRACE.lmdb`) on the developer's machine or a CI host, which
/// stores the events of every connected process in one trace.
///
/// ```swift
/// let recorder = LifecycleRecorder(sink: CollectorSink(host: "127.0.0.1", port: 7777,
///                                                      process: "com.example.notes.widget", kind: .widget,
///                                                      fallback: SpoolSink(path: spool)))
/// ```
///
/// **The collector gets the whole session, once, in order,** whatever happens
/// to the connection: the app may start before `replay record --listen`, wait on
/// the local-network alert, or see the collector restart. Every event the sink
/// is given is numbered (its `delivery`, spec/collector-protocol.md) and kept
/// in the sink's backlog until the collector has acknowledged it. The sink's
/// own thread connects, says who it is, learns from the collector which of its
/// events the trace already holds, and sends the rest, in order; the collector
/// stores an event it already has at most once. The backlog holds at most
/// ``maxBacklogBytes`` of encoded events; past that, the sink stops streaming
/// for the rest of the session (the collector's trace would have a gap) and the
/// fallback takes everything, which `replay merge` joins to the trace.
///
/// **A call never waits on the network.** ``write(_:)`` queues the batch for
/// the sink's thread and waits at most ``acknowledgementWait`` (25 ms) for the
/// collector's acknowledgement. A batch not acknowledged by then also goes to
/// `fallback` (a spool file, say), so that it is on the device's disk before the
/// call returns, as the recorder promises for `.background` and `terminate`;
/// the sink keeps sending it to the collector. Resolving the host, connecting
/// and waiting for a slow collector all happen on the sink's thread: a
/// recorder call on the main thread costs at most the wait and the fallback's
/// write, with the collector unreachable (BENCHMARKS.md measures it).
///
/// Without a fallback, unacknowledged events wait only in the backlog (in
/// memory), and ``write(_:)`` throws once the backlog is full and the collector
/// is unreachable. A full backlog while the collector is connected and
/// acknowledging (a flood faster than the network) is the one case where a
/// write waits longer: for room, as long as the collector makes progress (at
/// most the acknowledgement timeout without any); a batch larger than the
/// backlog goes in as parts.
///
/// Events the collector rejects as malformed (it names their line) are
/// reported to the unified log and count as handled; the recorder never
/// produces such events.
///
/// On iOS, connecting to anything but the loopback address asks the user for
/// local-network access: add `NSLocalNetworkUsageDescription` to the app's
/// Info.plist. A sandboxed Mac app needs the `com.apple.security.network.client`
/// entitlement, even for the loopback address. watchOS has no BSD sockets an app
/// may use: there, record into a ``SpoolSink``. A collector listening beyond the
/// loopback interface demands a token: pass the same `token` here.
public final class CollectorSink: RecordingSink {
    /// The most bytes of encoded events the backlog holds by default (8 MiB, about 50,000 events).
    public static let defaultMaxBacklogBytes = 8 << 20

    /// How long ``write(_:)`` waits for the collector's acknowledgement before it also
    /// hands the batch to the fallback.
    public let acknowledgementWait: Duration
    /// The most bytes of encoded events kept for the collector until it acknowledges them.
    public let maxBacklogBytes: Int

    private let core: Core
    private let fallback: (any RecordingSink)?
    /// The process the events are about (`""`: the main app), written into each event that names
    /// none, so that the fallback spool says it too.
    private let process: String
    private let host: String
    private let port: Int

    /// A sink streaming to the collector at `host:port`. Never fails and does
    /// not connect yet: the first ``write(_:)`` starts the sink's thread, which does.
    ///
    /// - Parameters:
    ///   - host: the collector's address or name, such as `"127.0.0.1"`.
    ///   - port: its TCP port.
    ///   - token: the collector's `--token`, needed when it listens beyond the loopback interface.
    ///   - process: the process these events are about (`""` for the main app); the collector
    ///     stamps it into every event that names no process of its own.
    ///   - kind: what kind of process records.
    ///   - fallback: where batches the collector has not acknowledged within
    ///     ``acknowledgementWait`` go as well (a spool file).
    public convenience init(host: String, port: Int, token: String? = nil, process: String = "", kind: ProcessKind = .app,
                            fallback: (any RecordingSink)? = nil) {
        self.init(host: host, port: port, token: token, process: process, kind: kind, fallback: fallback,
                  retryInterval: .seconds(3), ackTimeout: .seconds(1))
    }

    /// ``init(host:port:token:process:kind:fallback:)`` with its timings and bound: how long after
    /// a failure the sink's thread tries connecting again, how long it waits for a connection
    /// or an acknowledgement before it gives the connection up, how long a write waits for the
    /// acknowledgement, and the backlog's size.
    package init(host: String, port: Int, token: String?, process: String, kind: ProcessKind, fallback: (any RecordingSink)?,
                 retryInterval: Duration, ackTimeout: Duration, acknowledgementWait: Duration = .milliseconds(25),
                 maxBacklogBytes: Int = CollectorSink.defaultMaxBacklogBytes) {
        self.host = host
        self.port = port
        self.fallback = fallback
        self.process = process
        self.acknowledgementWait = acknowledgementWait
        self.maxBacklogBytes = max(1, maxBacklogBytes)
        let client = "\(getpid())-\(String(UInt64.random(in: 1...UInt64.max), radix: 16))"
        var members = [JSONMember("lifecycle-log", .string("collector")), JSONMember("version", .number("1")),
                       JSONMember("process", .string(process)), JSONMember("kind", .string(kind.rawValue)),
                       JSONMember("pid", .number(String(getpid()))), JSONMember("client", .string(client))]
        if let token { members.append(JSONMember("token", .string(token))) }
        core = Core(host: host, port: port, client: client, handshake: members, retryInterval: retryInterval, ackTimeout: ackTimeout)
    }

    /// `events`, each with a `delivery` member naming this sink, its number
    /// among the events the sink was given, and its own `t`: the same in the
    /// collector's trace and in the fallback, so that the collector can store
    /// each once and `replay merge` can put a trace and a spool back together
    /// (spec/collector-protocol.md, "Delivery").
    private func stamped(_ events: [LifecycleEvent], from first: Int) -> [LifecycleEvent] {
        var result = events
        for i in result.indices {
            // The process, as the collector would fill it in from the handshake: a spool of a widget
            // that never reached the collector is then the widget's, for `replay merge` and for
            // `replay spool.jsonl` alike (issue 30: it was merged into the main app's session).
            if result[i].process == nil, !process.isEmpty { result[i].process = process }
            result[i].extraFields.removeAll { $0.name == Self.deliveryMember }
            result[i].extraFields.append(JSONMember(Self.deliveryMember, .object([
                JSONMember("client", .string(core.client)),
                JSONMember("n", .number(String(first + i + 1))),
                JSONMember("t", .number(JSONWriter.number(events[i].t))),
            ])))
        }
        return result
    }

    /// The member ``write(_:)`` adds to every event.
    package static let deliveryMember = "delivery"

    deinit { close() }

    /// `host:port`.
    public var destination: String { "\(host):\(port)" }

    /// 0: the collector keeps its own timeline (it shifts each connection's
    /// times, spec/collector-protocol.md).
    public var lastTime: Double { 0 }

    /// Whether the sink's thread is connected to the collector now.
    public var isConnected: Bool { core.state.withLock { $0.connected } }

    /// How many of the events given to the sink the collector has acknowledged
    /// (stored now, or found already in its trace).
    public var acknowledgedEventCount: Int { core.state.withLock { $0.acknowledged } }

    /// Queues `events` for the collector and waits at most ``acknowledgementWait``
    /// for its acknowledgement; a batch not acknowledged by then is written to
    /// the fallback too.
    ///
    /// - Throws: ``LifecycleLogError`` when the sink is closed, or when the
    ///   backlog has no room and there is no fallback (or the fallback failed).
    public func write(_ events: [LifecycleEvent]) throws {
        guard !events.isEmpty else { return }
        // A batch larger than the backlog's room goes in as parts, each when there is room for it.
        var roomDeadline: ContinuousClock.Instant?
        var taken: [LifecycleEvent] = []  // stamped, in the backlog
        var last = 0
        var waiter: DispatchSemaphore?
        var rest = events[...]
        while !rest.isEmpty {
            switch try admit(rest, waitingForRoomUntil: &roomDeadline) {
            case .admitted(let stamped, let upTo, let ackWaiter):
                taken += stamped
                last = upTo
                waiter = ackWaiter
                rest = rest.dropFirst(stamped.count)
                roomDeadline = nil
                core.start()
                core.wake.signal()
            case .waitForRoom(let room):
                core.start()
                core.wake.signal()
                // Woken by an acknowledgement: progress, so the next wait gets a whole timeout again.
                if room.wait(timeout: .now() + ((roomDeadline ?? .now) - .now).dispatchInterval) == .success, core.isConnected { roomDeadline = nil }
            case .fallbackOnly:
                // The streaming ended: what this batch put in the backlog goes to the fallback with the rest.
                if !taken.isEmpty, let fallback { try fallback.write(taken) }
                try writeToFallbackOnly(Array(rest))
                return
            }
        }
        if let waiter { _ = waiter.wait(timeout: .now() + acknowledgementWait.dispatchInterval) }
        try afterAdmission((taken, last, waiter))
    }

    /// What ``write(_:)`` does with a batch.
    private enum Admission {
        /// The first events of the batch (all that fit) are in the backlog, numbered up to `last`;
        /// wait on `waiter` for the acknowledgement.
        case admitted(stamped: [LifecycleEvent], last: Int, waiter: DispatchSemaphore?)
        /// The backlog is full while the collector keeps acknowledging: wait for room.
        case waitForRoom(DispatchSemaphore)
        /// The sink stopped streaming: only the fallback.
        case fallbackOnly
    }

    /// Takes the batch into the backlog, or says to wait for room, or gives the streaming up.
    ///
    /// A full backlog while the collector is connected and acknowledging (a flood faster than the
    /// network) holds the write until there is room, as long as the collector makes progress (at
    /// most its acknowledgement timeout without any): the recorder's own bound then applies. A full
    /// backlog while the collector is unreachable ends the streaming for the session.
    private func admit(_ events: ArraySlice<LifecycleEvent>, waitingForRoomUntil roomDeadline: inout ContinuousClock.Instant?) throws -> Admission {
        try core.state.withLock { s -> Admission in
            guard !s.closed else {
                throw LifecycleLogError(.invalidArgument, "the collector sink is closed; create a new one to record again", path: destination)
            }
            if !s.gaveUp {
                // The events that fit in the backlog's room, from the first; each encoded once.
                var lines: [[UInt8]] = []
                var bytes = 0
                let candidates = stamped(Array(events.prefix(1024)), from: s.delivered)
                for event in candidates {
                    var line: [UInt8] = []
                    JSONWriter.writeObject(event.jsonMembers, into: &line)
                    line.append(0x0A)
                    if s.backlogBytes + bytes + line.count > maxBacklogBytes { break }
                    bytes += line.count
                    lines.append(line)
                }
                if !lines.isEmpty {
                    let stamped = Array(candidates.prefix(lines.count))
                    for (i, line) in lines.enumerated() { s.backlog.append(Core.Outgoing(n: s.delivered + i + 1, line: line)) }
                    s.backlogBytes += bytes
                    s.delivered += stamped.count
                    s.newestTime = stamped[stamped.count - 1].t
                    s.newestTimeGiven = .now
                    // No wait while the collector is known to be unreachable: the batch goes to the fallback at once.
                    let reachable = s.connected || s.failure == nil
                    let waiter = acknowledgementWait > .zero && reachable && stamped.count == events.count ? DispatchSemaphore(value: 0) : nil
                    if let waiter { s.waiters.append((s.delivered, waiter)) }
                    return .admitted(stamped: stamped, last: s.delivered, waiter: waiter)
                }
                let deadline = roomDeadline ?? .now + core.ackTimeout
                if s.connected, !s.backlog.isEmpty, ContinuousClock.now < deadline {
                    // A flood faster than the collector: room comes as it acknowledges.
                    roomDeadline = deadline
                    let room = DispatchSemaphore(value: 0)
                    s.roomWaiters.append(room)
                    return .waitForRoom(room)
                }
                // The collector would get a gap: it gets nothing more of this session.
                s.gaveUp = true
                s.backlog.removeAll()
                s.backlogBytes = 0
                s.warning = LifecycleLogError(.io, "more than \(maxBacklogBytes) bytes of events waited for the collector at \(destination); the sink stopped streaming to it for this session, so that its trace has no gap. "
                    + (fallback.map { "Everything from event \(s.acknowledged + 1) on is in \($0.destination): join it to the trace with `replay merge`" } ?? "Give the sink a fallback (a SpoolSink) to keep the rest"),
                    path: destination)
                RecorderLog.report(s.warning!)  // `!`: set just above
            }
            return .fallbackOnly
        }
    }

    /// After the wait for the acknowledgement: a batch not acknowledged goes to the fallback too.
    private func afterAdmission(_ admitted: (stamped: [LifecycleEvent], last: Int, waiter: DispatchSemaphore?)) throws {
        // Not acknowledged yet: the batch goes to the device's disk as well, while the sink's thread keeps sending it.
        let (acknowledged, reason) = core.state.withLock { s in
            s.waiters.removeAll { $0.n == admitted.last }
            return (s.acknowledged, s.failure)
        }
        if acknowledged >= admitted.last { return }
        let why = reason.map { " (\($0.message))" } ?? ""
        guard let fallback else {
            core.state.withLock { s in
                s.warning = LifecycleLogError(.io, "the collector at \(destination) has not acknowledged events \(acknowledged + 1)–\(admitted.last)\(why); they wait in memory until it does (at most \(maxBacklogBytes) bytes). Start it with `replay record --listen \(destination) TRACE.lmdb`, or give the sink a fallback",
                                              path: destination)
            }
            return
        }
        do {
            try fallback.write(admitted.stamped)
            core.state.withLock { s in
                s.warning = LifecycleLogError(.io, "the collector at \(destination) has not acknowledged events up to \(admitted.last) yet\(why); they are in \(fallback.destination) too, and the sink keeps sending them",
                                              path: destination)
            }
        } catch {
            // The events are in the backlog all the same: the collector still gets them, so the batch is not given back.
            let message = (error as? RecordingSinkPartialWrite)?.error.message ?? (error as? LifecycleLogError)?.message ?? "\(error)"
            core.state.withLock { s in
                s.warning = LifecycleLogError(.io, "the fallback \(fallback.destination) failed (\(message)) while the collector at \(destination) had not acknowledged events up to \(admitted.last); they wait in memory for the collector",
                                              path: destination)
            }
        }
    }

    /// After the sink stopped streaming: the fallback takes the batch, or the write fails.
    private func writeToFallbackOnly(_ events: [LifecycleEvent]) throws {
        try core.state.withLock { s in
            guard let fallback else {
                throw s.warning ?? LifecycleLogError(.io, "the collector sink stopped streaming and has no fallback", path: destination)
            }
            let stamped = stamped(events, from: s.delivered)
            do {
                try fallback.write(stamped)
            } catch let partial as RecordingSinkPartialWrite {
                s.delivered += partial.written  // the rest comes back, numbered from there
                throw partial
            }
            s.delivered += stamped.count
        }
    }

    /// Returns, after a batch the collector had not acknowledged in time, why;
    /// otherwise the fallback's own warnings.
    public func takeWarning() -> LifecycleLogError? {
        let own = core.state.withLock { s -> LifecycleLogError? in
            defer { s.warning = nil }
            return s.warning
        }
        return own ?? fallback?.takeWarning()
    }

    /// Why the sink's thread could not connect or send the last time it tried
    /// (unreachable, refused for a wrong token, no acknowledgement); `nil` once it is connected.
    public var connectionError: LifecycleLogError? { core.state.withLock { $0.failure } }

    /// Gives the sink's thread a moment to deliver what is left, stops it, and
    /// closes the fallback. The moment is taken only while the sink is connected
    /// (or connecting for the first time):
    /// with a fallback, every batch the collector had not acknowledged is on disk
    /// already, and the moment is ``acknowledgementWait``; without one, what is
    /// left exists only in memory, and the sink waits up to its acknowledgement
    /// timeout (1 s). With the collector unreachable, it returns at once.
    public func close() {
        let (done, connected) = core.state.withLock { s -> (DispatchSemaphore?, Bool) in
            guard !s.closed else { return (nil, false) }
            s.closed = true
            return (s.stopped, s.connected || s.failure == nil)  // connected, or connecting for the first time
        }
        guard let done else { return }
        core.wake.signal()
        let wait = fallback == nil ? core.ackTimeout : acknowledgementWait
        if core.isStarted, connected { _ = done.wait(timeout: .now() + wait.dispatchInterval) }
        core.state.withLock { $0.abandoned = true }
        core.wake.signal()
        fallback?.close()
    }
}

extension Duration {
    /// The span in milliseconds, fractions kept (the unit of the trace's `t`).
    package var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The same span for Dispatch (at least 1 µs, at most a day).
    var dispatchInterval: DispatchTimeInterval {
        let microseconds = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        return .microseconds(Int(clamping: min(max(1, microseconds), 86_400_000_000)))
    }
}
