#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif

/// A recorded lifecycle session that an assertion replays: what a recorder has recorded so far,
/// a trace file, events in memory, or what a live check has found.
///
/// Make one with a static factory where an assertion takes it:
///
/// ```swift
/// assertNoFindings(in: .recorder(recorder))
/// assertFindings(in: .trace("Fixtures/two-windows.jsonl"), [ExpectedFinding(.lostUpdate, at: 8)])
/// assertNoFindings(in: .events(events))
/// assertNoFindings(in: .live(live))
/// ```
///
/// Resolving a session gives the report; a failing assertion also names the session and attaches
/// it (its file, or its events as JSON Lines) where the test framework keeps attachments.
public struct RecordedSession: Sendable {
    /// Where the session's events are.
    enum Source: Sendable {
        case recorder(LifecycleRecorder)
        case trace(String)
        case events([LifecycleEvent])
        case live(LiveCheck)
    }

    /// Where the session's events are.
    let source: Source

    private init(_ source: Source) {
        self.source = source
    }

    /// What `recorder` has recorded so far: the assertion flushes it first (its events are
    /// committed), and it stays open, to record more and assert again.
    ///
    /// Any sink works whose events can be read back: a `MemorySink` (its events, even after the
    /// recorder is closed), a `SpoolSink` (its file), and, where liblmdb is (Linux), a
    /// `TraceFileSink`. A `CollectorSink`'s events are on the collector: assert over the trace
    /// `replay record --listen` writes, with ``trace(_:)``.
    ///
    /// - Parameter recorder: the recorder.
    /// - Returns: the session the recorder has recorded so far.
    public static func recorder(_ recorder: LifecycleRecorder) -> RecordedSession {
        RecordedSession(.recorder(recorder))
    }

    /// The trace file at `path`: a `.jsonl` trace (a `SpoolSink`'s file, a fixture), or, where
    /// liblmdb is (Linux), a `.lmdb` trace file.
    ///
    /// - Parameter path: the trace file's path.
    /// - Returns: the session the file holds.
    public static func trace(_ path: String) -> RecordedSession {
        RecordedSession(.trace(path))
    }

    /// Events in memory, in order: seq n is the nth.
    ///
    /// - Parameter events: the session's events.
    /// - Returns: the session of those events.
    public static func events(_ events: [LifecycleEvent]) -> RecordedSession {
        RecordedSession(.events(events))
    }

    /// What the live check `live` has found in what it has folded so far: the assertion waits for
    /// everything recorded to be folded. Findings that wait for the end of the session come after
    /// `live.finish()` (the recorder's `close()` calls it).
    ///
    /// A live check runs its own rules (the `configuration` and `appRules` it was made with): an
    /// assertion over it takes no `configuration:` or `customRules:` of its own, and fails, saying
    /// so, when given them.
    ///
    /// - Parameter live: the live check.
    /// - Returns: the session the live check has checked so far.
    public static func live(_ live: LiveCheck) -> RecordedSession {
        RecordedSession(.live(live))
    }

    /// How the failure message names the session.
    var name: String {
        switch source {
        case .recorder(let recorder): return recorder.destination
        case .trace(let path): return path
        case .events: return "events"
        case .live(let live): return live.destination == "live check" ? "live check" : "live check of \(live.destination)"
        }
    }

    /// The file that holds the session, to attach and to draw a timeline of, if there is one.
    var file: String? {
        switch source {
        case .recorder(let recorder):
            if recorder.sink is MemorySink { return nil }
            return (recorder.sink as? SpoolSink)?.currentPath ?? recorder.destination
        case .trace(let path): return path
        case .events, .live: return nil
        }
    }

    /// The events, for a session that is not a file (to attach as JSON Lines).
    var events: [LifecycleEvent]? {
        switch source {
        case .recorder(let recorder): return (recorder.sink as? MemorySink)?.events
        case .trace, .live: return nil
        case .events(let events): return events
        }
    }

    /// Replays the session.
    ///
    /// - Throws: `LifecycleLogError`: the recorder could not commit, the file could not be read,
    ///   or the sink cannot be read back here (a `CollectorSink`: assert over the collector's
    ///   trace instead; an `.lmdb` file where liblmdb is not available).
    func replay(configuration: RuleConfiguration, customRules: [any LifecycleRule]) throws -> ReplayReport {
        switch source {
        case .live(let live):
            // What the live check found, once it has folded everything recorded so far.
            live.waitUntilChecked()
            let findings = live.checkedFindings
            return ReplayReport(trace: name, events: live.checkedEventCount, runs: 0, findings: findings)
        case .events(let events):
            return try Replayer.replay(events: events, configuration: configuration, customRules: customRules)
        case .trace(let path):
            return try Self.replayFile(path, configuration: configuration, customRules: customRules)
        case .recorder(let recorder):
            do {
                try recorder.flush()
            } catch {
                throw LifecycleLogError(.io, "could not commit the recorded events before replaying them: \(error)", path: recorder.destination)
            }
            if let memory = recorder.sink as? MemorySink {
                return try Replayer.replay(events: memory.events, trace: "memory", configuration: configuration, customRules: customRules)
            }
            if let spool = recorder.sink as? SpoolSink {
                return try Replayer.replay(jsonLines: spool.currentPath, configuration: configuration, customRules: customRules)
            }
            if recorder.sink is CollectorSink {
                throw LifecycleLogError(.invalidArgument,
                    "a CollectorSink's events are on the collector, not here: assert over the trace `replay record --listen` writes (assertNoFindings(in: .trace(path))), or record tests into a MemorySink",
                    path: recorder.destination)
            }
            return try Self.replayFile(recorder.destination, configuration: configuration, customRules: customRules)
        }
    }

    /// Replays a trace file: JSON Lines anywhere; `.lmdb` where liblmdb is (Linux, through `LifecycleLog`).
    private static func replayFile(_ path: String, configuration: RuleConfiguration,
                                   customRules: [any LifecycleRule]) throws -> ReplayReport {
        #if LIFECYCLELOG_TESTING_LMDB
        return try Replayer.replay(path, configuration: configuration, customRules: customRules)
        #else
        if isTraceFileName(path) {
            throw LifecycleLogError(.invalidArgument,
                "\(path) is an LMDB trace file, which needs liblmdb, and no Apple platform has it: record tests into a MemorySink or a SpoolSink (a .jsonl file), or replay the file with `replay` on the Mac",
                path: path)
        }
        return try Replayer.replay(jsonLines: path, configuration: configuration, customRules: customRules)
        #endif
    }

    /// Whether `path` names an `.lmdb` trace file.
    static func isTraceFileName(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".lmdb")
    }
}
