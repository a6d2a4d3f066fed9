/// A sink that keeps the events in memory: for tests, previews, and for
/// replaying a session in process without writing a file.
///
/// ```swift
/// let sink = MemorySink()
/// let recorder = LifecycleRecorder(sink: sink)
/// recorder.mark("hello")
/// try recorder.flush()
/// sink.events.count // 1
/// ```
public final class MemorySink: RecordingSink {
    private let stored = Locked<[LifecycleEvent]>([])

    /// An empty sink.
    public init() {}

    /// `memory`.
    public var destination: String { "memory" }
    /// The `t` of the last event held, or 0.
    public var lastTime: Double { stored.withLock { $0.last?.t ?? 0 } }
    /// Every event written so far, in order.
    public var events: [LifecycleEvent] { stored.withLock { $0 } }

    /// Appends `events`.
    public func write(_ events: [LifecycleEvent]) throws {
        stored.withLock { $0.append(contentsOf: events) }
    }

    /// Does nothing: the events stay readable.
    public func close() {}
}
