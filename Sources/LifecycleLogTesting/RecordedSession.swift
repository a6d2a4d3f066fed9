#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif

/// What an assertion replays: a recorder with any sink, a trace file, or events in memory.
/// Resolving it gives the report and names what to attach when the assertion fails.
enum RecordedSession {
    case recorder(LifecycleRecorder)
    case trace(String)
    case events([LifecycleEvent])
    case live(LiveCheck)

    /// How the failure message names the session.
    var name: String {
        switch self {
        case .recorder(let recorder): return recorder.destination
        case .trace(let path): return path
        case .events: return "events"
        case .live(let live): return live.destination == "live check" ? "live check" : "live check of \(live.destination)"
        }
    }

    /// The file that holds the session, to attach and to draw a timeline of, if there is one.
    var file: String? {
        switch self {
        case .recorder(let recorder):
            if recorder.sink is MemorySink { return nil }
            return (recorder.sink as? SpoolSink)?.currentPath ?? recorder.destination
        case .trace(let path): return path
        case .events, .live: return nil
        }
    }

    /// The events, for a session that is not a file (to attach as JSON Lines).
    var events: [LifecycleEvent]? {
        switch self {
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
        switch self {
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
                    "a CollectorSink's events are on the collector, not here: assert over the trace `replay record --listen` writes (assertNoFindings(inTrace:)), or record tests into a MemorySink",
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
