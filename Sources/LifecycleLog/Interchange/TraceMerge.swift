extension TraceInterchange {
    /// What ``merge(trace:spools:to:warning:)`` did.
    public struct MergeSummary: Sendable, Hashable {
        /// Events taken from the collector's trace.
        public var fromTrace: Int = 0
        /// Events taken from the spool files (those the trace did not hold).
        public var fromSpools: Int = 0
        /// Events left out because the trace (or an earlier spool line) already held them.
        public var duplicates: Int = 0
        /// Spool events without a `delivery` member (written by a client older than it):
        /// kept, at their own `t`, since nothing tells whether the trace holds them too.
        public var unidentified: Int = 0
        /// The seq of the last event of the merged trace.
        public var lastSeq: UInt64 = 0
    }

    /// Puts a collector's trace and the fallback spools of its clients back
    /// into one session, written to a new trace at `output` (atomically, like import).
    ///
    /// `CollectorSink` stamps every event it is given with a `delivery` member
    /// (spec/collector-protocol.md, "Delivery"): the same in the collector's
    /// trace and in its fallback. An event whose delivery is already in the
    /// trace (a batch the collector committed but did not acknowledge before
    /// it died, which the sink then spooled) or on an earlier spool line is
    /// left out. Each spool event is placed on the trace's timeline by the
    /// offset of the nearest event of the same sink in the trace (the
    /// collector shifts each connection's `t` by one offset), kept between
    /// that sink's events before and after it in the trace, and takes that
    /// sink's process when it names none; the whole is written in `t` order
    /// (at equal `t`, each sink's events in its own order), with new seqs.
    ///
    /// - Parameters:
    ///   - trace: the collector's trace file.
    ///   - spools: the JSON Lines spool files (`SpoolSink`), in any order.
    ///   - output: the trace file to write.
    ///   - warning: called with a spool's torn final line, which is dropped.
    /// - Throws: `LifecycleLogError` (a bad spool line names its file and line).
    public static func merge(trace: String, spools: [String], to output: String,
                             warning: ((LifecycleLogError) -> Void)? = nil) throws -> MergeSummary {
        var summary = MergeSummary()
        // Sorted by (t, group, client, order): group 0 is a spool event that must come before
        // the trace event it was moved to (its sink's next one), 1 the trace's, 2 other spool events.
        var merged: [(t: Double, group: Int, client: String, order: UInt64, event: LifecycleEvent)] = []
        // Each delivery seen, with its event (t and process left out: the collector moves one and
        // fills in the other) and where it is: two different events with one delivery conflict.
        var seen: [Delivery: (event: Int, place: String)] = [:]
        func conflict(_ delivery: Delivery, _ event: LifecycleEvent, at place: String) throws {
            guard let first = seen[delivery], first.event != Self.identity(event) else { return }
            throw LifecycleLogError(.invalidInput, "two different events carry delivery \(delivery.n) of client \"\(delivery.client)\": \(first.place) and \(place); one of them was not sent by that client (a collector older than this version stored any connection's deliveries). Nothing was written: find which is forged (replay dump), remove it (replay export, edit, replay import) and merge again")
        }
        var stored: [String: [(n: UInt64, t: Double, offset: Double)]] = [:]
        var processes: [String: String] = [:]
        let source = try Trace(path: trace)
        var version = try source.formatVersion
        try source.forEachEvent { seq, event in
            if let delivery = Delivery(event) {
                guard seen[delivery] == nil else {
                    try conflict(delivery, event, at: "the trace's seq \(seq)")
                    summary.duplicates += 1
                    return
                }
                seen[delivery] = (Self.identity(event), "the trace's seq \(seq)")
                if let own = Self.ownTime(event) { stored[delivery.client, default: []].append((delivery.n, event.t, event.t - own)) }
                if let process = event.process { processes[delivery.client] = process }
            }
            merged.append((event.t, 1, "", UInt64(merged.count), event))
            summary.fromTrace += 1
        }
        for client in stored.keys { stored[client]?.sort { $0.n < $1.n } }
        for spool in spools {
            let spoolVersion = try JSONLinesDecoder.forEachEvent(inFile: spool, tornFinalRecord: { warning?($0) }) { _, line, event in
                var event = event
                guard let delivery = Delivery(event) else {
                    summary.unidentified += 1
                    summary.fromSpools += 1
                    merged.append((event.t, 2, "", UInt64(merged.count), event))
                    return
                }
                guard seen[delivery] == nil else {
                    // The trace's own event (or the first spool line) stays; a different one is a conflict.
                    try conflict(delivery, event, at: "\(spool) line \(line)")
                    summary.duplicates += 1
                    return
                }
                seen[delivery] = (Self.identity(event), "\(spool) line \(line)")
                var group = 2
                if let known = stored[delivery.client], !known.isEmpty {
                    // Moved by the offset of this sink's nearest earlier event in the trace (else its
                    // nearest later one), and kept between the two in the sink's own order.
                    let previous = known.last(where: { $0.n < delivery.n })
                    let next = known.first(where: { $0.n > delivery.n })
                    event.t += (previous ?? known[0]).offset
                    if let previous { event.t = max(event.t, previous.t) }
                    if let next, event.t >= next.t {
                        event.t = next.t
                        group = 0
                    }
                }
                if event.process == nil, let process = processes[delivery.client], !process.isEmpty { event.process = process }
                summary.fromSpools += 1
                merged.append((event.t, group, delivery.client, delivery.n, event))
            }
            version = max(version, Int(spoolVersion))
        }
        merged.sort { ($0.t, $0.group, $0.client, $0.order) < ($1.t, $1.group, $1.client, $1.order) }
        try writeAtomically(to: output) { writer in
            var batch: [LifecycleEvent] = []
            batch.reserveCapacity(min(merged.count, importBatchSize))
            for entry in merged {
                batch.append(entry.event)
                if batch.count == importBatchSize {
                    try writer.append(batch, formatVersion: version)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try writer.append(batch, formatVersion: version)
            summary.lastSeq = writer.lastSeq
        }
        return summary
    }

    /// What makes two copies of one delivered event the same: everything but `t` and `process`
    /// (the collector moves the one and fills in the other), hashed.
    private static func identity(_ event: LifecycleEvent) -> Int {
        var event = event
        event.t = 0
        event.process = nil
        return event.hashValue
    }

    /// The event's own `t`, as its sink saw it (from its `delivery` member).
    private static func ownTime(_ event: LifecycleEvent) -> Double? {
        guard let member = event.extraFields.last(where: { $0.name == CollectorSink.deliveryMember }),
              case .object(let fields) = member.value,
              let t = fields.first(where: { $0.name == "t" }), case .number(let literal) = t.value else { return nil }
        return Double(literal)
    }
}
