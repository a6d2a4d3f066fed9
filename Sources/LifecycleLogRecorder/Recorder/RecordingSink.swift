/// Where a ``LifecycleRecorder`` puts the events it records.
///
/// The recorder calls a sink from one thread at a time, in order, with
/// batches of events; a sink writes each batch durably before returning
/// (a commit, a write and a sync, a send that the other side acknowledged
/// or that a spool file holds). The package's sinks are ``MemorySink``, the
/// spool and collector sinks of this module, and, in `LifecycleLog` where
/// liblmdb exists, `TraceFileSink` for an LMDB trace.
///
/// Implement one to send events somewhere else; a sink that fails throws,
/// and the recorder keeps the batch for the next try.
public protocol RecordingSink: AnyObject, Sendable {
    /// Where the events go, for messages: a file path, `host:port`.
    var destination: String { get }
    /// The `t` of the last event already at the destination (0 for a new
    /// one), which the recorder's times continue from.
    var lastTime: Double { get }
    /// Writes `events`, in order, after everything written before.
    ///
    /// - Throws: ``LifecycleLogError`` (or any error) when the batch was not
    ///   written; none of it counts as written then. ``RecordingSinkPartialWrite``
    ///   when only its first ``RecordingSinkPartialWrite/written`` events were
    ///   written (durably): the recorder keeps the others for the next try.
    func write(_ events: [LifecycleEvent]) throws
    /// Releases the destination. Called once, after the last write.
    func close()
    /// Returns, once, a problem the sink recovered from since the last call
    /// (it moved to another file, a collector was unreachable and a spool took
    /// the batch). The recorder calls it after each successful write and
    /// reports it through ``LifecycleRecorder/lastError``.
    func takeWarning() -> LifecycleLogError?
}

extension RecordingSink {
    /// No warnings: the default for sinks that either write or throw.
    public func takeWarning() -> LifecycleLogError? { nil }
}

/// Thrown by ``RecordingSink/write(_:)`` when only the first events of the
/// batch were written, durably, as ``SpoolSink`` does when the disk fills
/// partway: the recorder counts those as written and keeps the rest, in
/// order, for the next try.
public struct RecordingSinkPartialWrite: Error, Sendable {
    /// How many events, from the start of the batch, were written (at least 1, fewer than the batch).
    public var written: Int
    /// Why the rest was not written.
    public var error: LifecycleLogError

    /// A partial write of the first `written` events, stopped by `error`.
    public init(written: Int, error: LifecycleLogError) {
        self.written = written
        self.error = error
    }
}
