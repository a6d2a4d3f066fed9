#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collects the events that apps, their extensions and test runners stream
/// over TCP (`CollectorSink`, or anything speaking spec/collector-protocol.md)
/// into one trace, in arrival order. `replay record --listen` runs one.
///
/// ```swift
/// let collector = try TraceCollector(trace: "session.lmdb", host: "127.0.0.1", port: 0)
/// print("listening on \(collector.address)")
/// let summary = try collector.run { message in print(message) }  // until stop()
/// ```
///
/// One thread runs a `poll(2)` loop over the listening socket and every
/// connection, and owns the trace's single `TraceWriter`. Each connection
/// starts with a handshake that is checked (and, with a token, must present
/// it) before any of its events is stored. Each later line is validated as a
/// version-2 event; a bad one (not JSON, an invalid event, `t` going
/// backwards on that connection, longer than the line cap) gets an error line
/// naming its line number and is never stored, and the connection goes on.
/// An event without `process` gets the connection's process. Whenever the
/// loop has read everything readable (and at least every 16,384 events), it
/// commits, then acknowledges each connection with `{"ack":N}`, the number of
/// its events stored so far: a kill of the collector loses only events it has
/// not acknowledged.
///
/// Times: each client counts `t` from its own start. The collector places a
/// connection's first event at the moment it arrives on the trace's timeline
/// (which continues the trace's last `t`) and keeps the client's intervals
/// after it, never letting `t` go backwards in the trace.
public final class TraceCollector: @unchecked Sendable {
    // @unchecked Sendable: only `stop()` may be called from another thread, and it only writes to `wakeWrite`;
    // everything else belongs to the thread in `run`.

    /// What a run did.
    public struct Summary: Sendable, Hashable {
        /// Events stored.
        public var accepted = 0
        /// Lines refused as malformed (each was reported).
        public var rejected = 0
        /// Connections whose handshake was accepted.
        public var connections = 0
        /// Connections refused at the handshake.
        public var refused = 0
        /// The seq of the last event in the trace.
        public var lastSeq: UInt64 = 0
    }

    /// The trace's path.
    public let path: String
    /// The port listened on: the real one when 0 was asked for.
    public var port: Int { listener.port }
    /// `HOST:PORT` as listened on.
    public var address: String { listener.address }

    private let listener: CollectorListener
    private let token: String?
    private let maxLineBytes: Int
    private let commitEvery: Int
    private let writer: TraceWriter
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Opens (or creates) the trace and starts listening.
    ///
    /// - Parameters:
    ///   - path: the trace to append to; created when missing.
    ///   - host: the address to listen on; a loopback address unless `token` is given.
    ///   - port: the TCP port; 0 picks a free one (see ``port``).
    ///   - token: a secret every client must present in its handshake.
    ///   - maxLineBytes: longer lines are refused without being buffered.
    ///   - commitEvery: the most events one transaction holds while input keeps arriving.
    /// - Throws: `LifecycleLogError`: `invalidArgument` for a non-loopback
    ///   address without a token or a bad address, `io` when the port is taken,
    ///   and the trace's own errors.
    public init(trace path: String, host: String = "127.0.0.1", port: Int, token: String? = nil, maxLineBytes: Int = 1 << 20,
                commitEvery: Int = 16_384) throws {
        self.path = path
        self.token = token
        self.maxLineBytes = max(64, maxLineBytes)
        self.commitEvery = max(1, commitEvery)
        // The address first: a refused address creates no trace file.
        listener = try CollectorListener.open(host: host, port: port, tokenGiven: token != nil)
        do {
            writer = try TraceWriter(path: path, sharing: .shared)
        } catch {
            close(listener.fd)
            throw error
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(listener.fd)
            throw LifecycleLogError(.io, "cannot create a pipe: \(SocketIO.text(errno))")
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        SocketIO.configure(wakeRead, tcp: false)
        SocketIO.configure(wakeWrite, tcp: false)
    }

    deinit {
        close(listener.fd)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Splits `HOST:PORT` (`[::1]:7777` for IPv6), as `--listen` takes it.
    ///
    /// - Throws: `LifecycleLogError` (`invalidArgument`) saying how to write it.
    public static func parse(address: String) throws -> (host: String, port: Int) {
        try CollectorListener.parse(address)
    }

    /// Makes ``run(log:)`` commit, answer and return. Safe from any thread or a
    /// signal source.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Accepts connections and stores their events until ``stop()``.
    ///
    /// - Parameter log: receives one line per notable thing: a client
    ///   connected, refused or gone, a line rejected (with the client and line number).
    /// - Throws: `LifecycleLogError` when the trace cannot be written (the
    ///   clients then fall back); bad input never throws.
    public func run(log: @escaping (String) -> Void) throws -> Summary {
        var loop = CollectorLoop(collector: self, log: log)
        defer { loop.closeAll() }
        try loop.run()
        loop.summary.lastSeq = writer.lastSeq
        return loop.summary
    }

    /// The loop's state, on the stack of the thread that runs it.
    private struct CollectorLoop {
        let collector: TraceCollector
        let log: (String) -> Void
        var connections: [CollectorConnection] = []
        var batch: [Event] = []
        var summary = Summary()
        /// Set while accepting fails for want of file descriptors.
        var acceptPausedUntil: ContinuousClock.Instant?
        /// The recorder's clock, so that the collector's times and an app's are read alike.
        let clock = LifecycleRecorder.systemClock
        let started: Double
        let baseTime: Double
        var lastTime: Double

        init(collector: TraceCollector, log: @escaping (String) -> Void) {
            self.collector = collector
            self.log = log
            baseTime = collector.writer.lastTime
            lastTime = collector.writer.lastTime
            started = clock()
        }

        /// Milliseconds on the trace's timeline now.
        var now: Double { baseTime + clock() - started }

        mutating func run() throws {
            var stopping = false
            while !stopping {
                // Out of file descriptors: stop accepting for a moment instead of spinning on a listener that stays readable.
                let accepting = acceptPausedUntil.map { ContinuousClock.now >= $0 } ?? true
                var entries = [pollfd(fd: collector.wakeRead, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: collector.listener.fd, events: accepting ? Int16(POLLIN) : 0, revents: 0)]
                for c in connections {
                    var events: Int32 = c.closing ? 0 : Int32(POLLIN)
                    if !c.output.isEmpty { events |= Int32(POLLOUT) }
                    entries.append(pollfd(fd: c.fd, events: Int16(events), revents: 0))
                }
                let ready = poll(&entries, nfds_t(entries.count), accepting ? -1 : 100)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw LifecycleLogError(.io, "poll failed: \(SocketIO.text(errno))")
                }
                if entries[0].revents != 0 { stopping = true }
                if entries[1].revents & Int16(POLLIN) != 0 { accept() }
                for (index, entry) in entries.dropFirst(2).enumerated() where entry.revents != 0 {
                    if entry.revents & Int16(POLLOUT) != 0 { flush(index) }
                    if entry.revents & ~Int16(POLLOUT) != 0, !connections[index].closing { try readAvailable(index) }
                }
                // Everything readable is read: commit, then acknowledge.
                try commit()
                for index in connections.indices { flush(index) }
                removeFinished()
            }
        }

        mutating func accept() {
            while true {
                let fd = acceptConnection(collector.listener.fd)
                if fd < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EMFILE || code == ENFILE {
                        log("cannot accept a connection: \(SocketIO.text(code)); raise the limit (ulimit -n) or connect fewer clients")
                        acceptPausedUntil = .now + .milliseconds(100)
                    } else {
                        acceptPausedUntil = nil
                    }
                    return  // EAGAIN: no more waiting; anything else: the client is gone already
                }
                SocketIO.configure(fd)
                connections.append(CollectorConnection(fd: fd))
            }
        }

        /// Reads what the connection has now (bounded per round, so one busy client cannot starve the rest).
        mutating func readAvailable(_ index: Int) throws {
            var rounds = 0
            while rounds < 16, !connections[index].closing {
                rounds += 1
                switch SocketIO.receive(connections[index].fd, into: &connections[index].input) {
                case .bytes:
                    try splitLines(index)
                case .wouldBlock:
                    return
                case .closed:
                    let c = connections[index]
                    if !c.input.isEmpty || c.discarding {
                        log("\(c.name): line \(c.lineNumber) ended without a newline when the client disconnected; not stored")
                    }
                    if c.handshake != nil { log("\(c.name) disconnected after \(c.stored + c.uncommitted) events") }
                    connections[index].input.removeAll()
                    connections[index].closing = true
                    connections[index].hungUp = true
                    return
                }
            }
        }

        /// Handles each whole line in the connection's input; keeps the rest, up to the cap.
        mutating func splitLines(_ index: Int) throws {
            // Taken out of the connection (not copied) while its lines are handled, which changes the connection.
            var input: [UInt8] = []
            swap(&input, &connections[index].input)
            var start = 0
            var i = connections[index].scanned
            while i < input.count, !connections[index].closing {
                if input[i] == 0x0A {
                    if connections[index].discarding {
                        connections[index].discarding = false
                        reject(index, "the line is longer than \(collector.maxLineBytes) bytes; split the data or raise the collector's limit")
                    } else {
                        let range = start..<i
                        try input.withUnsafeBufferPointer { all in try handle(line: UnsafeBufferPointer(rebasing: all[range]), index) }
                    }
                    connections[index].lineNumber += 1
                    start = i + 1
                }
                i += 1
            }
            if connections[index].closing || connections[index].discarding {
                input.removeAll()
            } else {
                input.removeFirst(start)
                if input.count > collector.maxLineBytes {
                    // Too long: dropped as it comes, and refused when its newline arrives.
                    connections[index].discarding = true
                    input.removeAll()
                }
            }
            connections[index].scanned = input.count
            swap(&input, &connections[index].input)
        }

        mutating func handle(line: UnsafeBufferPointer<UInt8>, _ index: Int) throws {
            var trimmed = line
            if let last = trimmed.last, last == 0x0D { trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast()) }
            guard connections[index].handshake != nil else {
                greet(trimmed, index)
                return
            }
            var i = 0
            while i < trimmed.count, trimmed[i] == 0x20 || trimmed[i] == 0x09 { i += 1 }
            if i == trimmed.count {
                return  // a blank line: nothing to store
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(trimmed)
            } catch {
                reject(index, "not valid JSON: \(error.message) (column \(JSONLinesDecoder.column(of: error.offset, in: trimmed)))")
                return
            }
            guard case .object(let members) = value else {
                reject(index, "each line must be one JSON object (an event), got \(Event.describe(value))")
                return
            }
            var event: Event
            do {
                event = try Event.decode(members: members, version: 2)
            } catch {
                reject(index, error.message)
                return
            }
            if event.t < connections[index].lastClientTime {
                reject(index, "\"t\" goes backwards: \(JSONWriter.number(event.t)) is smaller than the previous event's \(JSONWriter.number(connections[index].lastClientTime)) on this connection; events must be sent in the order they happened")
                return
            }
            connections[index].lastClientTime = event.t
            let offset = connections[index].offset ?? (now - event.t).rounded()  // whole milliseconds: readable times
            connections[index].offset = offset
            event.t = max(lastTime, event.t + offset)
            lastTime = event.t
            if event.process == nil, let process = connections[index].handshake?.process, !process.isEmpty { event.process = process }
            batch.append(event)
            connections[index].uncommitted += 1
            if batch.count >= collector.commitEvery { try commit() }
        }

        /// The first line: who the client is, and its token.
        mutating func greet(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) {
            do {
                let handshake = try CollectorHandshake.parse(line)
                if let token = collector.token, !Self.sameToken(handshake.token, token) {
                    summary.refused += 1
                    log("refused \(handshake.clientName): \(handshake.token == nil ? "no token" : "wrong token")")
                    connections[index].sendError(handshake.token == nil
                        ? "this collector needs a token; pass the token it was started with (--token) to CollectorSink(token:)"
                        : "wrong token; pass the token the collector was started with (--token)", line: 1)
                    connections[index].closing = true
                    return
                }
                connections[index].handshake = handshake
                summary.connections += 1
                log("connected: \(handshake.clientName)")
                connections[index].send([JSONMember("ack", .number("0"))])
            } catch {
                summary.refused += 1
                log("refused client \(connections[index].fd): \(error.message)")
                connections[index].sendError(error.message, line: 1)
                connections[index].closing = true
            }
        }

        /// Compares in time that depends on the lengths only, not on where the tokens differ.
        static func sameToken(_ given: String?, _ expected: String) -> Bool {
            guard let given else { return false }
            let a = Array(given.utf8), b = Array(expected.utf8)
            var difference = UInt8(a.count == b.count ? 0 : 1)
            for i in 0..<max(a.count, b.count) {
                difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
            }
            return difference == 0
        }

        mutating func reject(_ index: Int, _ message: String) {
            let number = connections[index].lineNumber
            summary.rejected += 1
            log("rejected: \(connections[index].name): line \(number): \(message)")
            connections[index].sendError(message, line: number)
        }

        /// Stores the batch in one transaction and queues the acknowledgements it earns.
        mutating func commit() throws {
            guard !batch.isEmpty else { return }
            try collector.writer.append(batch, formatVersion: 2)
            summary.accepted += batch.count
            batch.removeAll(keepingCapacity: true)
            for index in connections.indices where connections[index].uncommitted > 0 {
                connections[index].stored += connections[index].uncommitted
                connections[index].uncommitted = 0
                connections[index].send([JSONMember("ack", .number(String(connections[index].stored)))])
            }
        }

        /// Sends what the connection accepts now; a client that stops reading is dropped.
        mutating func flush(_ index: Int) {
            guard !connections[index].output.isEmpty else { return }
            guard let sent = SocketIO.sendSome(connections[index].fd, connections[index].output[...]) else {
                connections[index].output.removeAll()
                connections[index].closing = true
                connections[index].hungUp = true
                return
            }
            connections[index].output.removeFirst(sent)
            if connections[index].output.count > 4 << 20 {
                log("\(connections[index].name) does not read its acknowledgements; disconnected")
                connections[index].output.removeAll()
                connections[index].closing = true
                connections[index].hungUp = true
            }
        }

        /// Closes the connections that are done: refused (once their error line is out) or gone.
        mutating func removeFinished() {
            connections.removeAll { c in
                guard c.closing, c.uncommitted == 0, c.output.isEmpty || c.hungUp else { return false }
                // Refused: the error line is out; read what the client sent meanwhile, so that closing
                // does not reset the connection before the client reads the error.
                shutdown(c.fd, Int32(SHUT_WR))
                var sink: [UInt8] = []
                while case .bytes = SocketIO.receive(c.fd, into: &sink) { sink.removeAll(keepingCapacity: true) }
                close(c.fd)
                return true
            }
        }

        mutating func closeAll() {
            for index in connections.indices { flush(index) }
            for c in connections { close(c.fd) }
            connections.removeAll()
        }
    }
}

private func acceptConnection(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.accept(fd, nil, nil)
    #else
    Darwin.accept(fd, nil, nil)
    #endif
}
