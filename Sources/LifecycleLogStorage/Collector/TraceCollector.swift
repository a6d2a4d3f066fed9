internal import LifecycleLogPlatform

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
/// backwards on that connection or jumping ahead of the collector's clock,
/// longer than the line cap) gets an error line naming its line number and is
/// never stored, and the connection goes on. An event without `process` gets
/// the connection's process. Whenever the loop has read everything readable
/// (and at least every 16,384 events), it commits, then acknowledges each
/// connection with `{"ack":N}`, the number of its events stored so far: a
/// kill of the collector loses only events it has not acknowledged.
///
/// Everything a client can make the collector hold is bounded (``Limits``):
/// a line, a handshake, the bytes held before handshakes across all
/// connections, the time a handshake may take, and the number of connections
/// (below the descriptor limit, the oldest connection still without a
/// handshake is closed to make room for a new one).
///
/// Times: each client counts `t` from its own start. The collector places a
/// connection's first event at the moment it arrives on the trace's timeline
/// (which continues the trace's last `t`) and keeps the client's intervals
/// after it, never letting `t` go backwards in the trace.
///
/// Every message given to `run(log:)` has client text (process names, echoed
/// values) made visible with `VisibleText`, so it is safe for a terminal.
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
        /// Connections refused at the handshake (bad, too long, wrong or missing token), or turned away
        /// because every connection the collector may hold had a handshake.
        public var refused = 0
        /// Connections closed because they sent no handshake within ``Limits/handshakeTimeout``.
        public var timedOut = 0
        /// Connections without a handshake closed, oldest first, to make room for newer ones
        /// (``Limits/maxConnections``, ``Limits/maxPendingConnections``, ``Limits/maxPendingBytes``).
        public var evicted = 0
        /// The seq of the last event in the trace.
        public var lastSeq: UInt64 = 0
    }

    /// How much a client may make the collector hold, and for how long
    /// (spec/collector-protocol.md, "Limits"). The defaults are the documented ones.
    public struct Limits: Sendable, Hashable {
        /// The longest event line, in bytes (1 MiB). A longer line is dropped as it arrives and refused.
        public var maxLineBytes = 1 << 20
        /// The longest handshake line, in bytes (4 KiB): a connection whose first line is longer is
        /// refused and closed as soon as it passes this cap, newline or not.
        public var maxHandshakeBytes = 4096
        /// The bytes held for all connections without a handshake together (1 MiB); past it, the oldest
        /// such connections are closed.
        public var maxPendingBytes = 1 << 20
        /// The most connections without a handshake at once (1,024); a new one closes the oldest.
        public var maxPendingConnections = 1024
        /// How long a connection may take to send its handshake line (10 s).
        public var handshakeTimeout: Duration = .seconds(10)
        /// The most connections at once; `nil` (the default): the descriptor limit (`ulimit -n`) less
        /// ``reservedDescriptors``.
        public var maxConnections: Int?
        /// Descriptors kept free for the trace, standard streams and the listener (32).
        public var reservedDescriptors = 32
        /// How far ahead of the collector's clock an event's `t` may be placed, in milliseconds (60 s).
        public var maxLeadMilliseconds: Double = 60_000
        /// The most acknowledgement bytes a client may leave unread (4 MiB) before it is disconnected.
        public var maxUnreadOutputBytes = 4 << 20
        /// How often a `status:` line is logged while clients are connected (and something changed);
        /// `nil` (the default): never.
        public var statusInterval: Duration?

        /// The documented defaults.
        public init() {}
    }

    /// The trace's path.
    public let path: String
    /// The port listened on: the real one when 0 was asked for.
    public var port: Int { listener.port }
    /// `HOST:PORT` as listened on.
    public var address: String { listener.address }
    /// The bounds in force (``Limits/maxConnections`` resolved from the descriptor limit).
    public let limits: Limits

    private let listener: CollectorListener
    private let token: String?
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
    ///   - token: a secret every client must present in its handshake; not empty.
    ///   - limits: what a client may make the collector hold, and for how long.
    ///   - commitEvery: the most events one transaction holds while input keeps arriving.
    /// - Throws: `LifecycleLogError`: `invalidArgument` for an empty token, a
    ///   non-loopback address without a token or a bad address, `io` when the
    ///   port is taken, and the trace's own errors.
    public init(trace path: String, host: String = "127.0.0.1", port: Int, token: String? = nil, limits: Limits = Limits(),
                commitEvery: Int = 16_384) throws {
        self.path = path
        if token?.isEmpty == true {
            throw LifecycleLogError(.invalidArgument,
                                    "the token is empty (is the variable it comes from set?); give a secret such as --token \"$(openssl rand -hex 16)\", or no --token on 127.0.0.1")
        }
        self.token = token
        var limits = limits
        limits.maxLineBytes = max(64, limits.maxLineBytes)
        limits.maxHandshakeBytes = max(64, limits.maxHandshakeBytes)
        limits.maxPendingBytes = max(limits.maxHandshakeBytes, limits.maxPendingBytes)
        limits.maxPendingConnections = max(1, limits.maxPendingConnections)
        limits.maxConnections = max(1, limits.maxConnections ?? Self.descriptorLimit() - max(0, limits.reservedDescriptors))
        limits.maxLeadMilliseconds = max(0, limits.maxLeadMilliseconds)
        self.limits = limits
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

    /// The soft limit on open descriptors (`ulimit -n`), at most 1,048,576.
    private static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return Int(clamping: min(UInt64(limit.rlim_cur), 1 << 20))  // RLIM_INFINITY is the largest value
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
        let limits: Limits
        let maxConnections: Int
        let rawLog: (String) -> Void
        var connections: [CollectorConnection] = []
        var batch: [LifecycleEvent] = []
        var summary = Summary()
        /// Where each read lands before it joins its connection's input (one buffer for all, filled once).
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        /// Bytes held for connections without a handshake, all together.
        var pendingBytes = 0
        /// Connections without a handshake.
        var pendingCount = 0
        /// Set while accepting fails for want of file descriptors.
        var acceptPausedUntil: ContinuousClock.Instant?
        /// Connections closed in this round to make room (reported in one line).
        var evictedThisRound = 0
        /// When the next `status:` line is due, and what the last one said.
        var nextStatus: Double
        var lastStatus = ""
        /// The recorder's clock, so that the collector's times and an app's are read alike.
        let clock = LifecycleRecorder.systemClock
        let started: Double
        /// The trace's `t` when the loop started (moved earlier once, on a trace with no events,
        /// for a client whose first events came before the collector: see `place`).
        var baseTime: Double
        var lastTime: Double
        /// The highest delivery number stored for each resuming client (`client` in its handshake),
        /// read from the trace at the first such handshake and kept up to date: one entry per
        /// client that ever streamed into the trace (a client is one sink: one app launch).
        var deliveries: [String: UInt64]?

        init(collector: TraceCollector, log: @escaping (String) -> Void) {
            self.collector = collector
            limits = collector.limits
            maxConnections = collector.limits.maxConnections ?? 1  // resolved by init
            rawLog = log
            baseTime = collector.writer.lastTime
            lastTime = collector.writer.lastTime
            started = clock()
            nextStatus = started + (limits.statusInterval?.milliseconds ?? 0)
        }

        /// Milliseconds on the trace's timeline now.
        var now: Double { baseTime + clock() - started }

        /// Milliseconds on the collector's own clock now (for deadlines).
        var monotonic: Double { clock() }


        /// Logs `message` with every character a terminal could act on made visible (client text is in it).
        func log(_ message: String) {
            rawLog(VisibleText.escape(message) { scalar in Self.isInvisibleFormatting(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : nil })
        }

        /// Bidirectional overrides and isolates, zero-width characters and the byte order mark:
        /// they reorder or hide what a terminal shows.
        static func isInvisibleFormatting(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF: return true
            default: return false
            }
        }

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
                let ready = poll(&entries, nfds_t(entries.count), timeout(accepting: accepting))
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw LifecycleLogError(.io, "poll failed: \(SocketIO.text(errno))")
                }
                if entries[0].revents != 0 { stopping = true }
                // The connections first, so that a client whose handshake has arrived is through it
                // before a flood of new connections can take its place.
                for (index, entry) in entries.dropFirst(2).enumerated() where entry.revents != 0 {
                    if entry.revents & Int16(POLLOUT) != 0 { flush(index) }
                    if entry.revents & ~Int16(POLLOUT) != 0, !connections[index].closing { try readAvailable(index) }
                }
                expireHandshakes()
                // Everything readable is read: commit, then acknowledge.
                try commit()
                for index in connections.indices { flush(index) }
                removeFinished()
                if !stopping, entries[1].revents & Int16(POLLIN) != 0 { accept() }
                if evictedThisRound > 0 {
                    log("closed \(plural(evictedThisRound, "connection")) without a handshake, oldest first, to make room (at most \(maxConnections) connections, \(limits.maxPendingConnections) without a handshake, \(limits.maxPendingBytes) bytes held before handshakes)")
                    evictedThisRound = 0
                }
                reportStatus()
            }
        }

        /// Milliseconds `poll` may wait: until the next handshake deadline or status line, or for ever.
        func timeout(accepting: Bool) -> Int32 {
            var next: Double?
            if let oldest = connections.first(where: { $0.handshake == nil && !$0.closing }) {
                next = oldest.accepted + limits.handshakeTimeout.milliseconds
            }
            if limits.statusInterval != nil, !lastStatus.isEmpty || connections.contains(where: { $0.handshake != nil }) {
                next = min(next ?? nextStatus, nextStatus)
            }
            var wait = next.map { Int32(clamping: Int64(max(0, ($0 - monotonic).rounded(.up)))) } ?? -1
            if !accepting { wait = wait < 0 ? 100 : min(wait, 100) }
            return wait
        }

        mutating func accept() {
            // At most 64 a round, so that the clients already connected are read between the floods.
            for _ in 0..<64 {
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
                let address = peerAddress(fd)
                if connections.count >= maxConnections || pendingCount >= limits.maxPendingConnections {
                    guard evictOldestPending() else {
                        // Every connection has its handshake: this one is turned away, with a reason.
                        summary.refused += 1
                        log("refused client \(address): the collector holds \(plural(connections.count, "connection")), its most (the descriptor limit, ulimit -n, less \(limits.reservedDescriptors)); raise ulimit -n")
                        var line: [UInt8] = []
                        JSONWriter.writeObject([JSONMember("error", .string("the collector holds \(connections.count) connections, its most; try again later or raise its descriptor limit (ulimit -n)")),
                                                JSONMember("line", .number("1"))], into: &line)
                        line.append(0x0A)
                        _ = SocketIO.sendSome(fd, line[...])
                        close(fd)
                        continue
                    }
                }
                connections.append(CollectorConnection(fd: fd, address: address, accepted: monotonic))
                pendingCount += 1
            }
        }

        /// Closes the oldest connection still without a handshake; false when there is none.
        mutating func evictOldestPending() -> Bool {
            guard let index = connections.firstIndex(where: { $0.handshake == nil && !$0.closing }) else { return false }
            drop(index)
            close(connections[index].fd)
            connections.remove(at: index)
            return true
        }

        /// Forgets a connection without a handshake from the counts; it is closed by the caller.
        mutating func drop(_ index: Int) {
            release(index)
            summary.evicted += 1
            evictedThisRound += 1
            connections[index].input.removeAll()
            connections[index].output.removeAll()
            connections[index].closing = true
            connections[index].hungUp = true
        }

        /// Takes a connection out of the counts of connections without a handshake.
        mutating func release(_ index: Int) {
            guard connections[index].handshake == nil, !connections[index].closing else { return }
            pendingCount -= 1
            pendingBytes -= connections[index].heldBeforeHandshake
            connections[index].heldBeforeHandshake = 0
        }

        /// Reads what the connection has now (bounded per round, so one busy client cannot starve the rest).
        mutating func readAvailable(_ index: Int) throws {
            var rounds = 0
            while rounds < 16, !connections[index].closing {
                rounds += 1
                // Before its handshake, a connection gets no more than one byte past the handshake cap.
                let room = connections[index].handshake == nil ? limits.maxHandshakeBytes + 1 - connections[index].input.count : 64 * 1024
                switch receiveNow(connections[index].fd, into: &scratch, atMost: room) {
                case .bytes(let count):
                    connections[index].input.append(contentsOf: scratch[..<count])
                    try splitLines(index)
                    account(index)
                case .wouldBlock:
                    return
                case .closed:
                    let c = connections[index]
                    if !c.input.isEmpty || c.discarding {
                        log("\(c.name): line \(c.lineNumber) ended without a newline when the client disconnected; not stored")
                    }
                    if c.handshake != nil { log("\(c.name) disconnected after \(plural(c.stored + c.uncommitted, "event"))") }
                    release(index)
                    connections[index].input.removeAll()
                    connections[index].closing = true
                    connections[index].hungUp = true
                    return
                }
            }
        }

        /// Counts what a connection without a handshake holds, and keeps the total within its budget.
        mutating func account(_ index: Int) {
            guard connections[index].handshake == nil, !connections[index].closing else { return }
            if connections[index].input.count > limits.maxHandshakeBytes {
                release(index)
                summary.refused += 1
                log("refused client \(connections[index].address): its first line is longer than \(limits.maxHandshakeBytes) bytes")
                connections[index].sendError("the handshake line is longer than \(limits.maxHandshakeBytes) bytes; the first line must be {\"lifecycle-log\":\"collector\",\"version\":1,…}", line: 1)
                connections[index].input = []
                connections[index].closing = true
                return
            }
            let held = connections[index].input.count
            pendingBytes += held - connections[index].heldBeforeHandshake
            connections[index].heldBeforeHandshake = held
            // Over the budget: the oldest connections without a handshake go first (this one too, if it is the oldest).
            var candidate = 0
            while pendingBytes > limits.maxPendingBytes, candidate < connections.count {
                if connections[candidate].handshake == nil, !connections[candidate].closing {
                    connections[candidate].sendError("closed before a handshake: the collector holds its most bytes for connections without one; send the handshake line first, at once", line: 1)
                    let message = connections[candidate].output
                    drop(candidate)
                    connections[candidate].output = message  // a best-effort goodbye; closed at the end of the round
                    connections[candidate].hungUp = false
                }
                candidate += 1
            }
        }

        /// Closes the connections whose handshake is overdue.
        mutating func expireHandshakes() {
            let deadline = monotonic - limits.handshakeTimeout.milliseconds
            for index in connections.indices where connections[index].handshake == nil && !connections[index].closing {
                guard connections[index].accepted <= deadline else { break }  // in order of acceptance
                release(index)
                summary.timedOut += 1
                connections[index].input = []
                connections[index].sendError("no handshake within \(limits.handshakeTimeout); the first line must be the handshake, sent at once", line: 1)
                connections[index].closing = true
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
                        reject(index, "the line is longer than \(limits.maxLineBytes) bytes; split the data or raise the collector's limit")
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
                input = []
            } else {
                input.removeFirst(start)
                if connections[index].handshake != nil, input.count > limits.maxLineBytes {
                    // Too long: dropped as it comes, and refused when its newline arrives.
                    connections[index].discarding = true
                    input = []
                }
            }
            if input.isEmpty, input.capacity > 64 * 1024 { input = [] }  // a long line's room is given back
            connections[index].scanned = input.count
            swap(&input, &connections[index].input)
        }

        mutating func handle(line: UnsafeBufferPointer<UInt8>, _ index: Int) throws {
            var trimmed = line
            if let last = trimmed.last, last == 0x0D { trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast()) }
            guard connections[index].handshake != nil else {
                try greet(trimmed, index)
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
                reject(index, "each line must be one JSON object (an event), got \(LifecycleEvent.describe(value))")
                return
            }
            var event: LifecycleEvent
            do {
                event = try LifecycleEvent.decode(members: members, version: 2)
            } catch {
                reject(index, error.message)
                return
            }
            if TraceInterchange.Delivery(event) == nil, event.extraFields.contains(where: { $0.name == CollectorSink.deliveryMember }) {
                reject(index, "the event's \"\(CollectorSink.deliveryMember)\" member is not {\"client\": a string, \"n\": a whole number, \"t\": a number}; not stored")
                return
            }
            if let delivery = TraceInterchange.Delivery(event) {
                // A delivery name belongs to the connection that named itself with it: an event with
                // another client's would make the collector skip that client's real events as
                // duplicates, or hand it a `have` it never reached (issue 28).
                guard let client = connections[index].handshake?.client, delivery.client == client else {
                    let named = connections[index].handshake?.client.map { "named itself \"\($0)\"" } ?? "named no client"
                    reject(index, "the event's delivery names client \"\(delivery.client)\", but this connection \(named) in its handshake; a client sends only its own deliveries (send \"client\" in the handshake and number its events from 1); not stored")
                    return
                }
                let have = deliveries?[client] ?? 0
                if delivery.n <= have {
                    // The trace holds it already (sent again after a lost acknowledgement): acknowledged, not stored twice.
                    connections[index].uncommitted += 1
                    connections[index].duplicates += 1
                    return
                }
                if delivery.n != have + 1 {
                    reject(index, "delivery \(delivery.n) of client \(client) leaves a gap: the trace holds its events up to \(have); send them in order from \(have + 1) (the client's spool has the rest: `replay merge`)")
                    return
                }
                deliveries?[client] = delivery.n
            }
            if event.t < connections[index].lastClientTime {
                reject(index, "\"t\" goes backwards: \(JSONWriter.number(event.t)) is smaller than the previous event's \(JSONWriter.number(connections[index].lastClientTime)) on this connection; events must be sent in the order they happened")
                return
            }
            var current = now
            var offset = connections[index].offset ?? (current - event.t).rounded()  // whole milliseconds: readable times
            var placed = event.t + offset
            if placed < 0, lastTime == 0, collector.writer.lastSeq == 0, batch.isEmpty {
                // A trace with no events, and a client whose first events came before the collector started:
                // the trace's timeline starts at its first event, keeping the intervals the client saw.
                let shift = -placed
                shiftTimeline(by: shift)
                offset += shift
                current = now
                placed = event.t + offset
            }
            if placed > current + limits.maxLeadMilliseconds {
                // A client's clock cannot run ahead of the collector's by more than its first event's delay:
                // an absurd `t` would otherwise drag every later event of every connection along.
                reject(index, "\"t\" jumps ahead: \(JSONWriter.number(event.t)) is \(JSONWriter.number((placed - current).rounded())) ms ahead of the collector's clock on this connection (at most \(JSONWriter.number(limits.maxLeadMilliseconds)) ms); t must be the milliseconds since the client started")
                return
            }
            connections[index].lastClientTime = event.t
            connections[index].offset = offset
            event.t = max(lastTime, placed)
            lastTime = event.t
            if event.process == nil, let process = connections[index].handshake?.process, !process.isEmpty { event.process = process }
            batch.append(event)
            connections[index].uncommitted += 1
            if batch.count >= collector.commitEvery { try commit() }
        }

        /// Moves the trace's timeline (still without events) `shift` milliseconds later, with every
        /// connection's offset: so a session that began before the collector starts at `t` = 0.
        mutating func shiftTimeline(by shift: Double) {
            baseTime += shift
            for i in connections.indices where connections[i].offset != nil { connections[i].offset! += shift }  // `!`: checked
        }

        /// The highest delivery number of `client` the trace holds; the trace is read once, at the first call.
        mutating func delivered(_ client: String) throws(LifecycleLogError) -> UInt64 {
            if deliveries == nil {
                deliveries = try collector.writer.highestDeliveries()
                // Events of the current batch are not in the trace yet.
                for event in batch {
                    if let d = TraceInterchange.Delivery(event) { deliveries![d.client] = max(deliveries![d.client] ?? 0, d.n) }  // `!`: set above
                }
            }
            return deliveries?[client] ?? 0
        }

        /// The first line: who the client is, and its token.
        mutating func greet(_ line: UnsafeBufferPointer<UInt8>, _ index: Int) throws {
            release(index)
            do {
                let handshake = try CollectorHandshake.parse(line)
                if let token = collector.token, !Self.sameToken(handshake.token, token) {
                    summary.refused += 1
                    let missing = handshake.token?.isEmpty ?? true
                    log("refused \(handshake.clientName) from \(connections[index].address): \(missing ? "no token" : "wrong token")")
                    connections[index].sendError(missing
                        ? "this collector needs a token; pass the token it was started with (--token) to CollectorSink(token:)"
                        : "wrong token; pass the token the collector was started with (--token)", line: 1)
                    connections[index].closing = true
                    return
                }
                var answer = [JSONMember("ack", .number("0"))]
                if let client = handshake.client {
                    let have = try delivered(client)
                    answer.append(JSONMember("have", .number(String(have))))
                    if have > 0 { log("\(handshake.clientName) resumes after its event \(have)") }
                }
                if let clientNow = handshake.now { connections[index].offset = (now - clientNow).rounded() }
                connections[index].handshake = handshake
                summary.connections += 1
                log("connected: \(handshake.clientName) from \(connections[index].address)")
                connections[index].send(answer)
            } catch let error where error.code != .invalidInput && error.code != .unsupportedVersion {
                throw error  // the trace could not be read: the collector stops, as for a failed commit
            } catch {
                summary.refused += 1
                log("refused client \(connections[index].address): \(error.message)")
                connections[index].sendError(error.message, line: 1)
                connections[index].closing = true
            }
        }

        /// Compares in time that depends on the lengths only, not on where the tokens differ.
        /// An empty token never matches.
        static func sameToken(_ given: String?, _ expected: String) -> Bool {
            guard let given, !given.isEmpty, !expected.isEmpty else { return false }
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
            if !batch.isEmpty {
                try collector.writer.append(batch, formatVersion: 2)
                summary.accepted += batch.count
                batch.removeAll(keepingCapacity: true)
            }
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
                release(index)
                connections[index].output.removeAll()
                connections[index].closing = true
                connections[index].hungUp = true
                return
            }
            connections[index].output.removeFirst(sent)
            if connections[index].output.count > limits.maxUnreadOutputBytes {
                log("\(connections[index].name) does not read its acknowledgements; disconnected")
                release(index)
                connections[index].output.removeAll()
                connections[index].closing = true
                connections[index].hungUp = true
            }
        }

        /// Closes the connections that are done: refused (once their error line is out, or at once when
        /// the client does not take it) or gone.
        mutating func removeFinished() {
            guard connections.contains(where: { $0.closing && $0.uncommitted == 0 }) else { return }
            var sink = scratch
            connections.removeAll { c in
                guard c.closing, c.uncommitted == 0 else { return false }
                // Refused: the error line is out; read (a little of) what the client sent meanwhile, so that
                // closing does not reset the connection before the client reads the error.
                shutdown(c.fd, Int32(SHUT_WR))
                for _ in 0..<4 {
                    guard case .bytes = receiveNow(c.fd, into: &sink, atMost: sink.count) else { break }
                }
                close(c.fd)
                return true
            }
        }

        /// Logs a `status:` line when it is due and the counts changed.
        mutating func reportStatus() {
            guard let interval = limits.statusInterval, monotonic >= nextStatus else { return }
            nextStatus = monotonic + interval.milliseconds
            let open = connections.filter { $0.handshake != nil && !$0.closing }.count
            guard open > 0 || !lastStatus.isEmpty else { return }
            var text = "status: \(plural(open, "connection")), \(plural(summary.accepted, "event")) stored (last seq \(collector.writer.lastSeq))"
            if pendingCount > 0 { text += ", \(pendingCount) waiting for a handshake" }
            if summary.rejected > 0 { text += ", \(plural(summary.rejected, "line")) rejected" }
            if summary.refused + summary.timedOut + summary.evicted > 0 { text += ", \(plural(summary.refused + summary.timedOut + summary.evicted, "connection")) turned away" }
            guard text != lastStatus else { return }
            lastStatus = open > 0 ? text : ""
            log(text)
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

/// `recv(2)` of at most `atMost` bytes into the start of `buffer` (which is not resized), without waiting.
private func receiveNow(_ fd: Int32, into buffer: inout [UInt8], atMost: Int) -> SocketIO.Received {
    let count = max(1, min(atMost, buffer.count))
    while true {
        let got = buffer.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress!, count, 0) }  // `!`: a non-empty buffer
        if got > 0 { return .bytes(got) }
        let code = errno
        if got < 0, code == EINTR { continue }
        if got < 0, code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        return .closed
    }
}

/// `127.0.0.1:52114` or `[::1]:52114`: the peer of a connected socket, for messages.
private func peerAddress(_ fd: Int32) -> String {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    return withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> String in
            guard getpeername(fd, address, &length) == 0 else { return "fd \(fd)" }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
            guard getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV) == 0 else {
                return "fd \(fd)"
            }
            let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let port = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)"
        }
    }
}
