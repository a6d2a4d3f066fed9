import LifecycleLogRules
#if canImport(os)
import os
#endif

/// Instruments intervals for the recorded phases: one `OSSignposter` interval per window phase
/// and per app-level phase (subsystem `LifecycleLog`, category `phases`; each interval named by its
/// phase, its message the window id or `app`), so that a recorded session lines up with Instruments'
/// timeline (the os_signpost instrument, Points of Interest). Which intervals begin and end is
/// `PhaseIntervals`'s decision; they begin when SwiftUI's callback runs, not when the batch is
/// committed. Elsewhere than on Apple platforms it decides and draws nothing.
///
/// ```swift
/// PhaseSignposts.start(for: SceneRecorder.shared(for: recorder))
/// ```
public final class PhaseSignposts: Sendable {
    private struct State {
        var intervals = PhaseIntervals()
        #if canImport(os)
        var open: [String: OSSignpostIntervalState] = [:]
        #endif
    }
    private let state = Locked(State())
    #if canImport(os)
    private let signposter = OSSignposter(subsystem: "LifecycleLog", category: "phases")
    #endif

    private init() {}

    /// Draws the phases `scenes` records from now on, for the life of the process.
    @discardableResult
    public static func start(for scenes: SceneRecorder) -> PhaseSignposts {
        let signposts = PhaseSignposts()
        scenes.observe { kind in signposts.apply(kind) }
        return signposts
    }

    /// The phases whose intervals are open now, by window id (or `app`).
    public var openIntervals: [String: LifecyclePhase] { state.withLock { $0.intervals.open } }

    private func apply(_ kind: LifecycleEvent.Kind) {
        state.withLock { s in
            for change in s.intervals.apply(kind) {
                #if canImport(os)
                switch change {
                case .begin(let subject, let phase):
                    let id = signposter.makeSignpostID()
                    s.open[subject] = Self.begin(signposter, phase, id: id, subject: subject)
                case .end(let subject, let phase):
                    if let interval = s.open.removeValue(forKey: subject) { Self.end(signposter, phase, interval) }
                }
                #else
                _ = change
                #endif
            }
        }
    }

    #if canImport(os)
    /// Signpost names are static strings: one per phase.
    private static func begin(_ signposter: OSSignposter, _ phase: LifecyclePhase, id: OSSignpostID, subject: String) -> OSSignpostIntervalState {
        switch phase {
        case .active: return signposter.beginInterval("active", id: id, "\(subject, privacy: .public)")
        case .inactive: return signposter.beginInterval("inactive", id: id, "\(subject, privacy: .public)")
        case .background: return signposter.beginInterval("background", id: id, "\(subject, privacy: .public)")
        }
    }

    private static func end(_ signposter: OSSignposter, _ phase: LifecyclePhase, _ interval: OSSignpostIntervalState) {
        switch phase {
        case .active: signposter.endInterval("active", interval)
        case .inactive: signposter.endInterval("inactive", interval)
        case .background: signposter.endInterval("background", interval)
        }
    }
    #endif
}
