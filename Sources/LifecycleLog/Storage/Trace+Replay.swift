/// Replay's reading of a trace: its events decoded straight into the reducer's form, in batches
/// (``ReplayBatch``, of LifecycleLogRules, which LifecycleLogStorage does not depend on).
extension Trace {
    /// Decodes every event into the reducer's form
    /// (``EventCodec/decodeForReplay(_:symbols:extras:)``), with the trace's
    /// symbol ids as names, in batches of up to `capacity`: `body` gets each
    /// full batch (and the last, partial one) and may swap in another buffer;
    /// it returns `false` to stop.
    ///
    /// It stops at the last event the trace held when it began: a replay is of the trace as it
    /// was then, even when a writer appends meanwhile and the read goes on in a fresh snapshot.
    /// So every event refers only to symbols of the first batch's table, and the names the
    /// reducer interns after them (``NameTable/adopt(_:)``) can never collide with symbols
    /// appended since.
    func decodeBatches(capacity: Int = 1024, _ body: (inout ReplayBatch) throws -> Bool) throws {
        try withoutActuallyEscaping(body) { body in
            var batches = BatchConsumer(capacity: capacity, end: UInt64(try eventCount), body: body)
            try forEachRecord(from: 1, into: &batches)
            if !batches.stopped, !batches.batch.events.isEmpty { _ = try body(&batches.batch) }
        }
    }
}

/// ``Trace/decodeBatches(capacity:_:)``: events in the reducer's form, handed over in batches of
/// `capacity`, up to the last event the trace held when the replay began (`end`).
private struct BatchConsumer: RecordConsumer {
    var batch = ReplayBatch(firstSeq: 1, symbols: [])
    let capacity: Int
    let end: UInt64
    let body: (inout ReplayBatch) throws -> Bool
    /// Whether `body` asked to stop.
    var stopped = false

    init(capacity: Int, end: UInt64, body: @escaping (inout ReplayBatch) throws -> Bool) {
        self.capacity = capacity
        self.end = end
        self.body = body
        batch.events.reserveCapacity(capacity)
    }

    mutating func prepare(_ symbols: SymbolTable) { batch.symbols = symbols.strings }

    @inline(__always)
    mutating func decode(_ bytes: UnsafeRawBufferPointer, symbols: SymbolTable) throws -> ReplayEvent {
        try EventCodec.decodeForReplay(bytes, symbols: symbols.strings, extras: &batch.extras)
    }

    @inline(__always)
    mutating func take(seq: UInt64, _ event: ReplayEvent) throws -> Bool {
        if seq > end { return false }
        if batch.events.isEmpty { batch.firstSeq = seq }
        batch.events.append(event)
        if batch.events.count >= capacity {
            let symbols = batch.symbols
            guard try body(&batch) else { stopped = true; return false }
            batch.events.removeAll(keepingCapacity: true)
            batch.extras.removeAll(keepingCapacity: true)
            batch.symbols = symbols
        }
        return true
    }
}
