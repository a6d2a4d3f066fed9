import Dispatch
import LifecycleLogRecorder

/// Checks a session while it is recorded: a sink that hands every batch on to the sink it wraps
/// and folds it through the rules on a queue of its own, reporting each finding the moment the
/// rules decide it.
///
/// ```swift
/// #if DEBUG
/// let live = try LiveCheck(forwardingTo: SpoolSink(path: spoolPath)) { finding in
///     print(finding.message)               // or show it in a debug overlay
/// }
/// let recorder = LifecycleRecorder(sink: live)
/// #endif
/// ```
///
/// The recorder's call on the app's thread does not change: the recorder hands batches to its
/// sink after the call returns (or, for `.background` and `terminate`, commits them itself), and
/// ``write(_:)`` only queues them; the fold runs on the live check's queue. Its findings equal
/// `replay`'s for the same events, byte for byte: they are folded by the same reducer.
///
/// **End of the session.** Some findings wait for what comes next (a save that may still come, the
/// next launch). A session in an app has no last event: those findings come when the event that
/// decides them is recorded, or at ``finish()`` (the recorder's `close()` calls it through
/// ``close()``), as `replay` decides them at the end of a trace.
///
/// **Bounds.** Memory is the reducer's state, which grows with open windows and keys, not with the
/// session's length, plus at most `maxQueuedEvents` events waiting for the fold. When the fold
/// falls that far behind (a flood of events), the check stops rather than fold a session with a
/// gap, which would report wrong findings: ``stopReason`` says so, and every reporter is told
/// once. The ``findings`` stream keeps the newest 1,024 findings a consumer has not taken.
public final class LiveCheck: RecordingSink, Sendable {
    private struct Fold {
        var stream: FindingStream
        var seq: UInt64 = 0
        var finished = false
        /// The first ``LiveCheck/maxKeptFindings`` findings, for ``LiveCheck/checkedFindings``.
        var kept: [Finding] = []
    }

    private struct Queue {
        var queued = 0
        var stopReason: String?
        var stopReported = false
        var finishing = false
    }

    private let sink: (any RecordingSink)?
    private let fold: Locked<Fold>
    private let queueState = Locked(Queue())
    /// The fold's queue, below the app's own work (`.utility`), so that it yields the cores to it.
    private let queue = DispatchQueue(label: "LifecycleLog.live-check", qos: .utility)
    private let maxQueuedEvents: Int
    private let reporters: [any LiveFindingReporter]
    private let onFinding: (@Sendable (Finding) -> Void)?
    private let continuation: AsyncStream<Finding>.Continuation
    private let checkedDestination: String

    /// Every finding, as the rules decide it; the stream ends at ``finish()``. It buffers the
    /// newest 1,024 findings not yet taken.
    public let findings: AsyncStream<Finding>

    /// How many findings the ``findings`` stream keeps for a consumer that has not taken them.
    public static let findingsBuffer = 1_024
    /// How many findings ``checkedFindings`` keeps (the first ones).
    public static let maxKeptFindings = 10_000

    /// The findings so far (the first ``maxKeptFindings``), in report order: what a test asserts
    /// on (`LifecycleLogTesting`'s `assertNoFindings(in: .live(check))`). Call
    /// ``waitUntilChecked()`` or ``finish()`` first to include everything recorded.
    public var checkedFindings: [Finding] { fold.withLock { $0.kept } }

    /// The number of events folded so far.
    public var checkedEventCount: UInt64 { fold.withLock { $0.seq } }

    /// Starts a live check.
    ///
    /// - Parameters:
    ///   - sink: where the events go as well (a spool, a collector, a `MemorySink`); `nil` to only check.
    ///   - configuration: the rules to run and their severities, as `replay --rules` sets them.
    ///   - customRules: the app's own rules, run beside the catalogue's.
    ///   - reporters: where else each finding goes (`LifecycleLogLive`: Xcode runtime issues, the
    ///     system log, a swift-log `Logger`).
    ///   - maxQueuedEvents: how many recorded events may wait for the fold before the check stops.
    ///   - onFinding: called with each finding, on the live check's queue.
    /// - Throws: `LifecycleLogError` `invalidArgument` for app rules that cannot run together.
    public init(forwardingTo sink: (any RecordingSink)? = nil, configuration: RuleConfiguration = RuleConfiguration(),
                customRules: [any LifecycleRule] = [], reporters: [any LiveFindingReporter] = [],
                maxQueuedEvents: Int = 100_000, onFinding: (@Sendable (Finding) -> Void)? = nil) throws {
        self.sink = sink
        fold = Locked(Fold(stream: try FindingStream(configuration: configuration, customRules: customRules)))
        self.maxQueuedEvents = max(1, maxQueuedEvents)
        self.reporters = reporters
        self.onFinding = onFinding
        checkedDestination = sink?.destination ?? "the live session"
        (findings, continuation) = AsyncStream.makeStream(of: Finding.self, bufferingPolicy: .bufferingNewest(Self.findingsBuffer))
    }

    /// The wrapped sink's destination, or `live check`.
    public var destination: String { sink?.destination ?? "live check" }
    /// The wrapped sink's last `t`, or 0.
    public var lastTime: Double { sink?.lastTime ?? 0 }

    /// Why the check stopped before the session ended (it fell `maxQueuedEvents` behind), or `nil`.
    public var stopReason: String? { queueState.withLock { $0.stopReason } }

    /// Writes `events` to the wrapped sink, then queues what it took for the fold.
    ///
    /// - Throws: what the wrapped sink throws; the events it did not take are not checked yet
    ///   (the recorder hands them again).
    public func write(_ events: [LifecycleEvent]) throws {
        do {
            try sink?.write(events)
        } catch let partial as RecordingSinkPartialWrite {
            enqueue(Array(events.prefix(partial.written)))
            throw partial
        }
        enqueue(events)
    }

    /// The wrapped sink's warning.
    public func takeWarning() -> LifecycleLogError? { sink?.takeWarning() }

    /// Closes the wrapped sink and ends the check (``finish()``).
    public func close() {
        sink?.close()
        finish()
    }

    /// Ends the session for the rules: they decide what waits for the end, its findings are
    /// reported, and the ``findings`` stream ends. Later events are not checked. Returns once done.
    public func finish() {
        queueState.withLock { $0.finishing = true }
        queue.sync {
            let settled: [Finding] = fold.withLock { f in
                guard !f.finished else { return [] }
                f.finished = true
                var found: [Finding] = []
                _ = try? f.stream.finish(trace: checkedDestination) { found.append($0) }
                f.kept.append(contentsOf: found.prefix(max(0, Self.maxKeptFindings - f.kept.count)))
                return found
            }
            report(settled)
        }
        continuation.finish()
    }

    /// Waits until every event written so far has been folded and its findings reported (for
    /// tests, and for an app that shows findings at a point of its choosing).
    public func waitUntilChecked() {
        queue.sync {}
    }

    private func enqueue(_ events: [LifecycleEvent]) {
        guard !events.isEmpty else { return }
        // nil: accepted; else the reason to tell the reporters (once), or "" when already told.
        let refused = queueState.withLock { s -> String? in
            if s.stopReason == nil && !s.finishing && s.queued + events.count > maxQueuedEvents {
                s.stopReason = "the live check fell \(plural(s.queued + events.count, "event")) behind the recording (the limit is \(maxQueuedEvents)) and stopped: its findings after that point would be wrong. Replay the recorded session to check all of it."
            }
            if s.finishing { return "" }
            guard let reason = s.stopReason else {
                s.queued += events.count
                return nil
            }
            if s.stopReported { return "" }
            s.stopReported = true
            return reason
        }
        if let refused {
            if !refused.isEmpty {
                queue.async { [self] in
                    for reporter in reporters { reporter.report(Self.stopped(refused), message: "LifecycleLog: \(refused)") }
                }
            }
            return
        }
        queue.async { [self] in
            let settled: [Finding] = fold.withLock { f in
                guard !f.finished else { return [] }
                var found: [Finding] = []
                for event in events {
                    f.seq += 1
                    // `try?`: the handler below does not throw.
                    try? f.stream.apply(seq: f.seq, event) { found.append($0) }
                }
                f.kept.append(contentsOf: found.prefix(max(0, Self.maxKeptFindings - f.kept.count)))
                return found
            }
            queueState.withLock { $0.queued -= events.count }
            report(settled)
        }
    }

    /// What the reporters are told when the check stops: a warning of its own, at no event.
    private static func stopped(_ reason: String) -> Finding {
        Finding(rule: .custom("live-check-stopped"), severity: .warning, seq: 0, related: [], message: reason)
    }

    private func report(_ settled: [Finding]) {
        for finding in settled {
            onFinding?(finding)
            continuation.yield(finding)
            guard !reporters.isEmpty else { continue }
            let message = Self.message(for: finding, destination: checkedDestination)
            for reporter in reporters { reporter.report(finding, message: message) }
        }
    }
}

extension LiveCheck {
    /// A live check (the earlier spelling of
    /// ``init(forwardingTo:configuration:customRules:reporters:maxQueuedEvents:onFinding:)``).
    @available(*, deprecated, renamed: "init(forwardingTo:configuration:customRules:reporters:maxQueuedEvents:onFinding:)")
    public convenience init(forwardingTo sink: (any RecordingSink)? = nil, configuration: RuleConfiguration = RuleConfiguration(),
                            appRules: [any LifecycleRule], reporters: [any LiveFindingReporter] = [],
                            maxQueuedEvents: Int = 100_000, onFinding: (@Sendable (Finding) -> Void)? = nil) throws {
        try self.init(forwardingTo: sink, configuration: configuration, customRules: appRules, reporters: reporters,
                      maxQueuedEvents: maxQueuedEvents, onFinding: onFinding)
    }
}
