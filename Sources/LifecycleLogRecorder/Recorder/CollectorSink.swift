#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
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

extension CollectorSink {
    /// What the sink and its thread share. The thread holds only this, so a
    /// sink that goes away never waits for a thread stuck in `getaddrinfo`.
    final class Core: Sendable {
        struct Outgoing {
            /// The event's delivery number.
            var n: Int
            /// Its JSON line, newline included.
            var line: [UInt8]
        }

        struct State {
            /// Events given to the sink and not acknowledged, in order; `head` is the first kept.
            var backlog: [Outgoing] = []
            var backlogBytes = 0
            /// Events the sink was given (the `n` of the newest).
            var delivered = 0
            /// Events the collector holds (every `n` up to this).
            var acknowledged = 0
            /// The newest event's `t`, and when it was given: the client's clock at a handshake.
            var newestTime: Double = 0
            var newestTimeGiven: ContinuousClock.Instant = .now
            /// Writes waiting for an acknowledgement of every event up to `n`.
            var waiters: [(n: Int, semaphore: DispatchSemaphore)] = []
            /// Writes waiting for room in a full backlog.
            var roomWaiters: [DispatchSemaphore] = []
            var connected = false
            var closed = false
            /// Set by `close()` once it stopped waiting: the thread drops its connection and ends.
            var abandoned = false
            /// The backlog overflowed: nothing more is streamed.
            var gaveUp = false
            var warning: LifecycleLogError?
            /// Why the last connection or send failed.
            var failure: LifecycleLogError?
            /// Signalled when the thread ends.
            let stopped = DispatchSemaphore(value: 0)
        }

        let host: String
        let port: Int
        let client: String
        let handshake: [JSONMember]
        let retryInterval: Duration
        let ackTimeout: Duration
        let state = Locked(State())
        let wake = DispatchSemaphore(value: 0)
        private let started = Locked(false)

        init(host: String, port: Int, client: String, handshake: [JSONMember], retryInterval: Duration, ackTimeout: Duration) {
            self.host = host
            self.port = port
            self.client = client
            self.handshake = handshake
            self.retryInterval = retryInterval
            self.ackTimeout = ackTimeout
        }

        var destination: String { "\(host):\(port)" }
        var isStarted: Bool { started.withLock { $0 } }
        var isConnected: Bool { state.withLock { $0.connected } }

        /// Starts the thread once.
        func start() {
            let first = started.withLock { s -> Bool in
                defer { s = true }
                return !s
            }
            guard first else { return }
            // A queue of its own, for the life of the sink: the loop waits on sockets and a semaphore, never on other work.
            DispatchQueue(label: "LifecycleLog.CollectorSink", qos: .utility).async { [self] in
                var sender = Sender(core: self)
                sender.run()
                closeSocket(sender.connection?.fd ?? -1)
                state.withLock { $0.connected = false }
                state.withLock { $0.stopped }.signal()
            }
        }

        /// Marks every event up to `n` as held by the collector: drops them from the backlog and wakes their writes.
        func acknowledge(upTo n: Int) {
            state.withLock { s in
                guard n > s.acknowledged else { return }
                s.acknowledged = min(n, s.delivered)
                var dropped = 0
                var bytes = 0
                while dropped < s.backlog.count, s.backlog[dropped].n <= s.acknowledged {
                    bytes += s.backlog[dropped].line.count
                    dropped += 1
                }
                s.backlog.removeFirst(dropped)
                s.backlogBytes -= bytes
                s.waiters.removeAll { waiter in
                    guard waiter.n <= s.acknowledged else { return false }
                    waiter.semaphore.signal()
                    return true
                }
                for room in s.roomWaiters { room.signal() }
                s.roomWaiters.removeAll()
            }
        }
    }

    /// The sink's thread: connects, resumes, sends the backlog in order and reads acknowledgements.
    struct Sender {
        struct Connection {
            var fd: Int32
            /// The delivery number of the last event sent on this connection.
            var sentUpTo: Int
            /// The delivery number the connection's first event had less one: the collector's
            /// acknowledgement `N` covers events up to `base + N`.
            var base: Int
            /// Acknowledged and rejected events of this connection.
            var acknowledged = 0
            var rejected = 0
            /// When the collector last acknowledged something, or the connection's first send after
            /// it had nothing outstanding.
            var lastProgress: ContinuousClock.Instant = .now
            var input: [UInt8] = []
        }

        let core: Core
        var connection: Connection?
        var nextAttempt: ContinuousClock.Instant = .now
        /// The highest delivery number ever sent, for a collector that does not say what it has.
        var sentEver = 0

        init(core: Core) { self.core = core }

        mutating func run() {
            while true {
                let (closed, abandoned, gaveUp, pending, acknowledged) = core.state.withLock { s in
                    (s.closed, s.abandoned, s.gaveUp, s.backlog.last?.n ?? s.acknowledged, s.acknowledged)
                }
                if abandoned || gaveUp || (closed && pending <= acknowledged) { return }
                if connection == nil {
                    guard pending > acknowledged else {
                        _ = core.wake.wait(timeout: .distantFuture)
                        continue
                    }
                    if ContinuousClock.now < nextAttempt {
                        _ = core.wake.wait(timeout: .now() + (nextAttempt - .now).dispatchInterval)
                        continue
                    }
                    do {
                        connection = try connect()
                        core.state.withLock { $0.connected = true; $0.failure = nil }
                    } catch {
                        fail(error)
                        continue
                    }
                }
                do {
                    try sendBacklog()
                    try readAcknowledgements()
                } catch {
                    fail(error)
                }
            }
        }

        /// Drops the connection after `error`; the next attempt waits the retry interval.
        mutating func fail(_ error: LifecycleLogError) {
            if let fd = connection?.fd { closeSocket(fd) }
            connection = nil
            nextAttempt = .now + core.retryInterval
            core.state.withLock { s in
                s.connected = false
                s.failure = error
                // The writes waiting for an acknowledgement stop waiting: their batches go to the fallback now.
                for waiter in s.waiters { waiter.semaphore.signal() }
                s.waiters.removeAll()
                for room in s.roomWaiters { room.signal() }
                s.roomWaiters.removeAll()
            }
        }

        /// Connects, sends the handshake and reads `{"ack":0,"have":H}`: the collector holds this
        /// sink's events up to `H`, and the connection goes on after them.
        mutating func connect() throws(LifecycleLogError) -> Connection {
            let deadline = ContinuousClock.now + core.ackTimeout
            let fd = try SocketIO.connect(host: core.host, port: core.port, until: deadline)
            do {
                var members = core.handshake
                let now = core.state.withLock { s in s.newestTime + (.now - s.newestTimeGiven).milliseconds }
                members.append(JSONMember("now", .number(JSONWriter.number(now.rounded()))))
                var line: [UInt8] = []
                JSONWriter.writeObject(members, into: &line)
                line.append(0x0A)
                try SocketIO.sendAll(fd, line, until: deadline)
                var connection = Connection(fd: fd, sentUpTo: 0, base: 0)
                let have = try awaitHandshakeAnswer(&connection, until: deadline)
                if let have { core.acknowledge(upTo: have) }
                let acknowledged = core.state.withLock { $0.acknowledged }
                // A collector that says what it has stores each event once: send from there. One that
                // does not (an older collector) never gets an event twice: send only what was never sent.
                let from = have.map { _ in acknowledged } ?? max(acknowledged, sentEver)
                connection.sentUpTo = from
                connection.base = from
                return connection
            } catch {
                closeSocket(fd)
                throw error
            }
        }

        /// Sends every backlog event after the connection's last one.
        mutating func sendBacklog() throws(LifecycleLogError) {
            guard var connection else { return }
            let sentBefore = connection.sentUpTo
            let bytes = core.state.withLock { s -> [UInt8] in
                var bytes: [UInt8] = []
                for item in s.backlog where item.n > sentBefore {
                    bytes.append(contentsOf: item.line)
                    connection.sentUpTo = item.n
                    if bytes.count >= 1 << 20 { break }  // at most about 1 MiB a round
                }
                return bytes
            }
            guard !bytes.isEmpty else { return }
            if sentBefore == connection.base + connection.acknowledged + connection.rejected { connection.lastProgress = .now }
            try SocketIO.sendAll(connection.fd, bytes, until: .now + core.ackTimeout)
            sentEver = max(sentEver, connection.sentUpTo)
            self.connection = connection
        }

        /// Reads the collector's lines for a moment; gives the connection up when events sent on it
        /// have waited longer than the acknowledgement timeout.
        mutating func readAcknowledgements() throws(LifecycleLogError) {
            guard var connection else { return }
            let outstanding = connection.sentUpTo > connection.base + connection.acknowledged + connection.rejected
            if !outstanding {
                // Nothing to wait for: sleep until a write brings more (or the socket says something, such as closing).
                let more = core.state.withLock { ($0.backlog.last?.n ?? 0) > connection.sentUpTo || $0.closed }
                if !more { _ = core.wake.wait(timeout: .now() + .milliseconds(250)) }
                if SocketIO.wait(connection.fd, for: Int32(POLLIN), until: .now) { try receive(&connection) }
                self.connection = connection
                return
            }
            if SocketIO.wait(connection.fd, for: Int32(POLLIN), until: .now + .milliseconds(5)) {
                try receive(&connection)
            } else if ContinuousClock.now - connection.lastProgress > core.ackTimeout {
                self.connection = connection
                throw LifecycleLogError(.io, "the collector did not acknowledge within \(core.ackTimeout)", path: core.destination)
            }
            self.connection = connection
        }

        /// Reads what the socket has and handles each whole line.
        mutating func receive(_ connection: inout Connection) throws(LifecycleLogError) {
            if SocketIO.receive(connection.fd, into: &connection.input) == .closed {
                throw LifecycleLogError(.io, "the collector closed the connection", path: core.destination)
            }
            while let newline = connection.input.firstIndex(of: 0x0A) {
                let line = Array(connection.input[..<newline])
                connection.input.removeSubrange(...newline)
                if try read(line, on: &connection) != nil {
                    connection.lastProgress = .now
                    core.acknowledge(upTo: connection.base + connection.acknowledged + connection.rejected)
                }
            }
            if connection.input.count > 1 << 20 {
                throw LifecycleLogError(.io, "the collector sent a line longer than 1 MiB; is \(core.destination) a LifecycleLog collector?", path: core.destination)
            }
        }

        /// Waits for the answer to the handshake: `{"ack":0}`, with `have` from a collector that resumes.
        mutating func awaitHandshakeAnswer(_ connection: inout Connection, until deadline: ContinuousClock.Instant) throws(LifecycleLogError) -> Int? {
            while true {
                if let newline = connection.input.firstIndex(of: 0x0A) {
                    let line = Array(connection.input[..<newline])
                    connection.input.removeSubrange(...newline)
                    if let answer = try read(line, on: &connection) { return answer.have }
                    continue
                }
                guard SocketIO.wait(connection.fd, for: Int32(POLLIN), until: deadline) else {
                    throw LifecycleLogError(.io, "the collector did not answer the handshake within \(core.ackTimeout)", path: core.destination)
                }
                if connection.input.count > 1 << 20 {
                    throw LifecycleLogError(.io, "the collector sent a line longer than 1 MiB; is \(core.destination) a LifecycleLog collector?", path: core.destination)
                }
                if SocketIO.receive(connection.fd, into: &connection.input) == .closed {
                    throw LifecycleLogError(.io, "the collector closed the connection", path: core.destination)
                }
            }
        }

        /// One line from the collector: `{"ack":N}` (with `have` after a handshake), or
        /// `{"error":"…"}` with the `line` it is about. Returns the acknowledgement, if it was one.
        func read(_ line: [UInt8], on connection: inout Connection) throws(LifecycleLogError) -> (ack: Int, have: Int?)? {
            let value = line.withUnsafeBufferPointer { try? JSONParser.parse($0) }
            guard case .object(let members)? = value else {
                throw LifecycleLogError(.io, "the collector answered with something that is not a JSON object; is \(core.destination) a LifecycleLog collector?", path: core.destination)
            }
            func member(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
            if let ack = member("ack")?.integerValue {
                connection.acknowledged = max(connection.acknowledged, Int(ack))
                return (Int(ack), member("have")?.integerValue.map { Int($0) })
            }
            if case .string(let message)? = member("error") {
                guard let number = member("line")?.integerValue, number > 1 else {
                    // About the connection, not one event: the handshake was refused, or the collector is stopping.
                    throw LifecycleLogError(.io, "the collector refused the connection: \(message)", path: core.destination)
                }
                connection.rejected += 1
                RecorderLog.report(LifecycleLogError(.invalidInput, "the collector rejected an event: \(message)", path: core.destination, line: Int(number)))
                return (connection.acknowledged, nil)
            }
            throw LifecycleLogError(.io, "the collector sent a line this version does not understand; update LifecycleLog on both sides", path: core.destination)
        }
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

/// `close(2)`, named apart from the sinks' `close()`; nothing for a negative descriptor.
private func closeSocket(_ fd: Int32) {
    guard fd >= 0 else { return }
    #if canImport(Darwin)
    _ = Darwin.close(fd)
    #else
    _ = Glibc.close(fd)
    #endif
}
