internal import LifecycleLogPlatform
import Dispatch

// The sender of a CollectorSink: its thread, connection, handshake, resends and acknowledgements
// (spec/collector-protocol.md). The sink's public face is CollectorSink.swift.

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

/// `close(2)`, named apart from the sinks' `close()`; nothing for a negative descriptor.
private func closeSocket(_ fd: Int32) {
    guard fd >= 0 else { return }
    #if canImport(Darwin)
    _ = Darwin.close(fd)
    #else
    _ = Glibc.close(fd)
    #endif
}
