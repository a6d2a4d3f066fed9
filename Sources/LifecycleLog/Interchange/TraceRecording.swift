extension TraceInterchange {
    /// What ``record(from:to:rejected:)`` did.
    public struct RecordingSummary: Sendable, Hashable {
        /// Events appended.
        public var accepted: Int
        /// Lines rejected as malformed (each was reported).
        public var rejected: Int
        /// The seq of the last event in the trace afterwards.
        public var lastSeq: UInt64
    }

    /// Appends the events of a JSON Lines stream (`-` for standard input) to
    /// the trace at `path` as they arrive, creating it when missing.
    ///
    /// Each line is validated as import validates it; a bad line is passed to
    /// `rejected` (with its line number) and skipped, and every good line is
    /// kept. What has arrived is committed whenever the stream has nothing
    /// more to give yet, and at least every 16,384 events (an import batch), so a
    /// kill at any moment leaves the trace holding a prefix of the good lines.
    /// Other processes may read the trace, and append to it, meanwhile.
    ///
    /// A stream continues the trace's timeline: when its first event's `t` is
    /// below the trace's last `t` (a second session recorded into one trace),
    /// every event of the stream is moved later by the difference, so the
    /// whole session is kept, in its own order and spacing.
    ///
    /// - Throws: `LifecycleLogError` for failures of the input or the trace
    ///   itself (not for bad lines).
    public static func record(from input: String, to path: String, rejected: (LifecycleLogError) -> Void) throws -> RecordingSummary {
        let writer = try TraceWriter(path: path, sharing: .shared)
        // A stream that continues a version-2 trace is read as version 2 unless its own header says otherwise.
        // `t` is checked on the stream's own timeline; the stream is then moved onto the trace's,
        // as the collector moves a connection: a stream whose first `t` is below the trace's last
        // one (a second session, its clock from 0 again) is shifted to start there (issue 22).
        var decoder = JSONLinesDecoder(path: input == "-" ? "stdin" : input, continuingAfter: writer.lastSeq, at: 0,
                                       formatVersion: Int64(writer.formatVersion), declared: writer.lastSeq > 0)
        var shift: Double?
        var reader = try LineReader(path: input, bufferSize: 64 * 1024)
        var batch: [LifecycleEvent] = []
        var summary = RecordingSummary(accepted: 0, rejected: 0, lastSeq: writer.lastSeq)
        func commit() throws {
            guard !batch.isEmpty else { return }
            try writer.append(batch, formatVersion: Int(decoder.formatVersion))
            summary.accepted += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        try reader.forEachLine(beforeReading: commit) { number, line in
            do {
                if var event = try decoder.decode(line: line, number: number) {
                    let offset = shift ?? (event.t < writer.lastTime ? writer.lastTime - event.t : 0)
                    shift = offset
                    event.t += offset
                    batch.append(event)
                    if batch.count >= importBatchSize { try commit() }
                }
            } catch let error as LifecycleLogError where error.code == .invalidInput || error.code == .unsupportedVersion {
                summary.rejected += 1
                rejected(error)
            }
            return true
        }
        try commit()
        summary.lastSeq = writer.lastSeq
        return summary
    }
}
