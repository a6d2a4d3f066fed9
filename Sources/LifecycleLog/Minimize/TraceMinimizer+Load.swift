extension TraceMinimizer {
    /// Every event of the trace at `path` (`.lmdb` or `.jsonl`), in order.
    ///
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    public static func load(_ path: String) throws -> [LifecycleEvent] {
        var events: [LifecycleEvent] = []
        try Replayer.forEachEvent(in: path) { _, event in
            events.append(event)
            return true
        }
        return events
    }
}
