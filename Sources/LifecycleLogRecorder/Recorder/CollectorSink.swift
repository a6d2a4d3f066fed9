#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// The sink connects on the first write and says who it is (the handshake of
/// spec/collector-protocol.md); then each event is one JSON line. A
/// ``write(_:)`` returns once the collector has acknowledged that the whole
/// batch is committed to its trace (`{"ack":N}`), or after `ackTimeout`.
///
/// **Nothing is lost when the collector is not there.** When it cannot be
/// reached, refuses the handshake (a wrong token), or dies, the batch goes to
/// `fallback` (a spool file, say), and so do later batches while it stays
/// unreachable; the sink tries to connect again at most every few seconds.
/// Without a fallback, ``write(_:)`` throws and the recorder keeps the events
/// pending for its next try. A batch that was sent but not acknowledged when
/// the collector died is written to the fallback too: it may then be in both
/// the fallback and the collector's trace, but never twice in the collector's
/// trace (the sink never sends a batch again).
///
/// Events the collector rejects as malformed (it names their line) are
/// reported to the unified log and count as handled; the recorder never
/// produces such events.
///
/// On iOS, connecting to anything but the loopback address asks the user for
/// local-network access: add `NSLocalNetworkUsageDescription` to the app's
/// Info.plist. A collector listening beyond the loopback interface demands a
/// token: pass the same `token` here.
public final class CollectorSink: RecordingSink {
    private struct Connection {
        var fd: Int32
        /// Events sent on this connection, rejected ones included.
        var sent = 0
        /// Events the collector has stored (its last `{"ack":N}`).
        var acknowledged = 0
        /// Events it refused (`{"error":…,"line":N}`).
        var rejected = 0
        /// Bytes received and not yet a whole line.
        var input: [UInt8] = []
    }

    private struct State {
        var connection: Connection?
        /// When a failed connection may be tried again.
        var nextAttempt: ContinuousClock.Instant?
        var closed = false
        /// What ``takeWarning()`` returns next.
        var warning: LifecycleLogError?
        /// Events this sink was given so far (the `n` of their `delivery`).
        var delivered = 0
    }

    /// This sink's name in each event's `delivery` member: the process id and
    /// a random number, so two sinks (or two launches) never share one.
    private let client: String

    private let host: String
    private let port: Int
    private let handshake: [UInt8]
    private let fallback: (any RecordingSink)?
    private let retryInterval: Duration
    private let ackTimeout: Duration
    private let state = Locked(State())

    /// A sink streaming to the collector at `host:port`. Never fails and does
    /// not connect yet: the first ``write(_:)`` does.
    ///
    /// - Parameters:
    ///   - host: the collector's address or name, such as `"127.0.0.1"`.
    ///   - port: its TCP port.
    ///   - token: the collector's `--token`, needed when it listens beyond the loopback interface.
    ///   - process: the process these events are about (`""` for the main app); the collector
    ///     stamps it into every event that names no process of its own.
    ///   - kind: what kind of process records.
    ///   - fallback: where batches go while the collector cannot take them (a spool file).
    public convenience init(host: String, port: Int, token: String? = nil, process: String = "", kind: ProcessKind = .app,
                            fallback: (any RecordingSink)? = nil) {
        self.init(host: host, port: port, token: token, process: process, kind: kind, fallback: fallback,
                  retryInterval: .seconds(3), ackTimeout: .seconds(1))
    }

    /// ``init(host:port:token:process:kind:fallback:)`` with its timings: how
    /// long after a failure to try connecting again, and how long to wait for an acknowledgement.
    package init(host: String, port: Int, token: String?, process: String, kind: ProcessKind, fallback: (any RecordingSink)?,
                 retryInterval: Duration, ackTimeout: Duration) {
        self.host = host
        self.port = port
        self.fallback = fallback
        self.retryInterval = retryInterval
        self.ackTimeout = ackTimeout
        var members = [JSONMember("lifecycle-log", .string("collector")), JSONMember("version", .number("1")),
                       JSONMember("process", .string(process)), JSONMember("kind", .string(kind.rawValue)),
                       JSONMember("pid", .number(String(getpid())))]
        if let token { members.append(JSONMember("token", .string(token))) }
        var line: [UInt8] = []
        JSONWriter.writeObject(members, into: &line)
        line.append(0x0A)
        handshake = line
        client = "\(getpid())-\(String(UInt64.random(in: 1...UInt64.max), radix: 16))"
    }

    /// `events`, each with a `delivery` member naming this sink, its number
    /// among the events the sink was given, and its own `t`: the same in the
    /// collector's trace and in the fallback, so that `replay merge` can put
    /// them back together with nothing twice (spec/collector-protocol.md, "Delivery").
    private func stamped(_ events: [Event], from first: Int) -> [Event] {
        var result = events
        for i in result.indices {
            result[i].extraFields.removeAll { $0.name == Self.deliveryMember }
            result[i].extraFields.append(JSONMember(Self.deliveryMember, .object([
                JSONMember("client", .string(client)),
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
    /// times to when it arrived, spec/collector-protocol.md).
    public var lastTime: Double { 0 }

    /// Whether the sink is connected to the collector now.
    public var isConnected: Bool { state.withLock { $0.connection != nil } }

    /// Sends `events` and waits for the collector's acknowledgement; while the
    /// collector cannot take them, writes them to the fallback.
    ///
    /// - Throws: ``LifecycleLogError`` (`io`) when the collector did not take
    ///   the batch and there is no fallback (or the fallback failed too).
    public func write(_ events: [Event]) throws {
        try state.withLock { s in
            guard !s.closed else {
                throw LifecycleLogError(.invalidArgument, "the collector sink is closed; create a new one to record again", path: destination)
            }
            let events = stamped(events, from: s.delivered)
            var failure: LifecycleLogError?
            if s.connection == nil, s.nextAttempt.map({ ContinuousClock.now >= $0 }) ?? true {
                do {
                    s.connection = try connect()
                } catch {
                    failure = error as? LifecycleLogError ?? LifecycleLogError(.io, "\(error)", path: destination)
                    s.nextAttempt = .now + retryInterval
                }
            }
            if var connection = s.connection {
                do {
                    try send(events, on: &connection)
                    s.connection = connection
                    s.delivered += events.count
                    return
                } catch {
                    closeSocket(connection.fd)
                    s.connection = nil
                    s.nextAttempt = .now + retryInterval
                    failure = error as? LifecycleLogError ?? LifecycleLogError(.io, "\(error)", path: destination)
                }
            }
            let reason = failure ?? LifecycleLogError(.io, "the collector was unreachable moments ago; trying again shortly", path: destination)
            guard let fallback else {
                throw LifecycleLogError(.io, "could not send to the collector: \(reason.message); start it with `replay record --listen \(destination) TRACE.lmdb`, or give the sink a fallback",
                                        path: destination)
            }
            do {
                try fallback.write(events)
            } catch let partial as RecordingSinkPartialWrite {
                s.delivered += partial.written  // the rest comes back, numbered from there
                throw partial
            }
            s.delivered += events.count
            // Reported after every batch the fallback takes, so the recorder's lastError says so while it lasts.
            s.warning = LifecycleLogError(.io, "could not send to the collector (\(reason.message)); batches go to \(fallback.destination) until it is back, trying again every \(retryInterval)",
                                          path: destination)
        }
    }

    /// Returns, after each batch the fallback took instead of the collector,
    /// why; otherwise the fallback's own warnings.
    public func takeWarning() -> LifecycleLogError? {
        let own = state.withLock { s -> LifecycleLogError? in
            defer { s.warning = nil }
            return s.warning
        }
        return own ?? fallback?.takeWarning()
    }

    /// Disconnects, and closes the fallback.
    public func close() {
        let fd = state.withLock { s -> Int32? in
            guard !s.closed else { return nil }
            s.closed = true
            defer { s.connection = nil }
            return s.connection?.fd ?? -1
        }
        guard let fd else { return }
        if fd >= 0 { closeSocket(fd) }
        fallback?.close()
    }

    // MARK: The wire protocol

    private func connect() throws(LifecycleLogError) -> Connection {
        let deadline = ContinuousClock.now + ackTimeout
        let fd = try SocketIO.connect(host: host, port: port, until: deadline)
        var connection = Connection(fd: fd)
        do {
            try SocketIO.sendAll(fd, handshake, until: deadline)
            // The collector answers a good handshake with {"ack":0}, a bad one with an error line.
            try awaitAcknowledgement(of: 0, on: &connection, until: deadline)
        } catch {
            closeSocket(fd)
            throw error
        }
        return connection
    }

    private func send(_ events: [Event], on connection: inout Connection) throws(LifecycleLogError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 96)
        for event in events {
            JSONWriter.writeObject(event.jsonMembers, into: &bytes)
            bytes.append(0x0A)
        }
        try SocketIO.sendAll(connection.fd, bytes, until: .now + ackTimeout)
        connection.sent += events.count
        try awaitAcknowledgement(of: connection.sent, on: &connection, until: .now + ackTimeout)
    }

    /// Reads the collector's lines until its acknowledgements (and rejections) cover `target` events.
    private func awaitAcknowledgement(of target: Int, on connection: inout Connection, until deadline: ContinuousClock.Instant) throws(LifecycleLogError) {
        // The handshake (target 0) waits for its {"ack":0}; a batch for acknowledgements covering it.
        var answered = target > 0 && connection.acknowledged + connection.rejected >= target
        while !answered {
            while let newline = connection.input.firstIndex(of: 0x0A) {
                let line = Array(connection.input[..<newline])
                connection.input.removeSubrange(...newline)
                let wasAck = try read(line, on: &connection)
                if wasAck || target > 0, connection.acknowledged + connection.rejected >= target { answered = true }
            }
            if answered { break }
            guard SocketIO.wait(connection.fd, for: Int32(POLLIN), until: deadline) else {
                throw LifecycleLogError(.io, "the collector did not acknowledge within \(ackTimeout)", path: destination)
            }
            if connection.input.count > 1 << 20 {
                throw LifecycleLogError(.io, "the collector sent a line longer than 1 MiB; is \(destination) a LifecycleLog collector?", path: destination)
            }
            if SocketIO.receive(connection.fd, into: &connection.input) == .closed {
                throw LifecycleLogError(.io, "the collector closed the connection", path: destination)
            }
        }
    }

    /// One line from the collector: `{"ack":N}` (returns true), or `{"error":"…"}` with the `line` it is about.
    @discardableResult
    private func read(_ line: [UInt8], on connection: inout Connection) throws(LifecycleLogError) -> Bool {
        let value = line.withUnsafeBufferPointer { try? JSONParser.parse($0) }
        guard case .object(let members)? = value else {
            throw LifecycleLogError(.io, "the collector answered with something that is not a JSON object; is \(destination) a LifecycleLog collector?", path: destination)
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
        if let ack = member("ack")?.integerValue {
            connection.acknowledged = max(connection.acknowledged, Int(ack))
            return true
        }
        if case .string(let message)? = member("error") {
            guard let number = member("line")?.integerValue, number > 1 else {
                // About the connection, not one event: the handshake was refused, or the collector is stopping.
                throw LifecycleLogError(.io, "the collector refused the connection: \(message)", path: destination)
            }
            connection.rejected += 1
            RecorderLog.report(LifecycleLogError(.invalidInput, "the collector rejected an event: \(message)", path: destination, line: Int(number)))
            return false
        }
        throw LifecycleLogError(.io, "the collector sent a line this version does not understand; update LifecycleLog on both sides", path: destination)
    }
}

/// `close(2)`, named apart from the sinks' `close()`.
private func closeSocket(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
