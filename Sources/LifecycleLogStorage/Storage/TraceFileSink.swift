internal import LifecycleLogPlatform

/// A `RecordingSink` that appends to an LMDB trace file: one transaction
/// per batch, synced on commit. Opening an existing trace continues its
/// seqs and times.
///
/// ```swift
/// let recorder = LifecycleRecorder(sink: try TraceFileSink(path: "session.lmdb"))
/// ```
///
/// For tools, tests and command-line processes, not for apps: an app records into a
/// `SpoolSink` (and a `CollectorSink`). Inside an App Sandbox, liblmdb's lock cannot work (on Apple
/// platforms it uses System V semaphores, which the sandbox denies), so the initializer refuses to
/// open a trace there and says what to use instead; and a hardened app would have to load
/// Homebrew's liblmdb, which library validation refuses.
public final class TraceFileSink: RecordingSink {
    private let writer: Locked<TraceWriter>
    /// The trace file.
    public let path: String
    /// The `t` of the last event stored when the sink opened.
    public let lastTime: Double

    /// Opens (or creates) the trace at `path` for appending; other processes may read it meanwhile.
    ///
    /// - Throws: `LifecycleLogError` when the file cannot be opened, is not a
    ///   trace, or is damaged (record into a new file then); `invalidArgument` inside an App Sandbox.
    public init(path: String) throws {
        if let container = getenv("APP_SANDBOX_CONTAINER_ID"), container.pointee != 0 {
            throw LifecycleLogError(.invalidArgument,
                "this process runs in an App Sandbox (APP_SANDBOX_CONTAINER_ID is set), which denies the System V semaphores liblmdb's lock uses on Apple platforms; "
                + "record into a SpoolSink in the app's container (and a CollectorSink to a collector outside it), then `replay import` the spool",
                path: path)
        }
        let traceWriter = try TraceWriter(path: path, sharing: .shared)
        self.path = path
        lastTime = traceWriter.lastTime
        writer = Locked(traceWriter)
    }

    /// The trace file's path.
    public var destination: String { path }

    /// Appends `events` in one transaction. On a full disk, what fits is
    /// written: the batch is split in halves, down to one event, each part its
    /// own transaction.
    ///
    /// - Throws: `RecordingSinkPartialWrite` when only the first events were
    ///   written before the disk filled; `LifecycleLogError` when none were.
    public func write(_ events: [LifecycleEvent]) throws {
        try writer.withLock { writer in
            var written = 0
            var size = events.count
            while written < events.count {
                let end = min(events.count, written + size)
                do {
                    _ = try writer.append(written == 0 && end == events.count ? events : Array(events[written..<end]))
                    written = end
                } catch let error as LifecycleLogError where Self.mayBeOutOfSpace(error) {
                    if end - written > 1 {
                        size = (end - written) / 2
                        continue
                    }
                    if written > 0 { throw RecordingSinkPartialWrite(written: written, error: error) }
                    throw error
                }
            }
        }
    }

    /// Whether `error` may come from a full disk (liblmdb reports a short write as EIO).
    private static func mayBeOutOfSpace(_ error: LifecycleLogError) -> Bool {
        guard let status = error.lmdbStatus else { return false }
        return [ENOSPC, EDQUOT, EFBIG, EIO].contains(status)
    }

    /// Nothing to do: the environment closes when the sink goes.
    public func close() {}
}

extension LifecycleRecorder {
    /// Opens (or creates) the LMDB trace at `path` and records into it.
    ///
    /// - Parameters:
    ///   - path: the trace file; created when missing, continued when it is a trace.
    ///   - durability: when events reach the disk; batched by default.
    ///   - clock: the monotonic clock that gives `t`; inject one in tests.
    /// - Throws: `LifecycleLogError` when the file cannot be opened or is not a trace.
    public convenience init(path: String, durability: Durability = .batched(), clock: @escaping Clock = LifecycleRecorder.systemClock) throws {
        self.init(sink: try TraceFileSink(path: path), durability: durability, clock: clock)
    }

    /// The trace file being recorded (the sink's `RecordingSink/destination`).
    public var path: String { destination }
}
