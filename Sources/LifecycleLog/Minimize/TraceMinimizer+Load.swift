extension TraceMinimizer {
    /// Every event of the trace at `path` (`.lmdb` or `.jsonl`), in order.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    public static func load(_ path: String) throws -> [Event] {
        var events: [Event] = []
        try Replayer.forEachEvent(in: path) { _, event in
            events.append(event)
            return true
        }
        return events
    }
}
