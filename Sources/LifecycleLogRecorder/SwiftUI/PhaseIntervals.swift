/// The intervals a timeline shows for the recorded phases (`LifecycleLogLive`'s signposts in
/// Instruments): one per window phase and one per app-level phase, each ended by the next phase of
/// the same window, its `dismiss`, or the end of the run. A value: feed it events, draw what it returns.
///
/// ```swift
/// var intervals = PhaseIntervals()
/// intervals.apply(.phase(.active, window: "w1"))      // [.begin(subject: "w1", phase: .active)]
/// intervals.apply(.phase(.background, window: "w1"))  // [.end(subject: "w1", phase: .active), .begin(subject: "w1", phase: .background)]
/// intervals.apply(.dismiss(window: "w1"))             // [.end(subject: "w1", phase: .background)]
/// ```
package struct PhaseIntervals: Sendable, Hashable {
    /// An interval that begins or ends.
    package enum Change: Sendable, Hashable {
        /// `subject` (a window id, or `PhaseIntervals/app`) entered `phase`.
        case begin(subject: String, phase: LifecyclePhase)
        /// `subject` left `phase`.
        case end(subject: String, phase: LifecyclePhase)
    }

    /// The subject of the app-level phase's intervals.
    package static let app = "app"

    /// The open intervals: each subject's current phase.
    package private(set) var open: [String: LifecyclePhase] = [:]

    /// No open interval.
    package init() {}

    /// What `kind` begins and ends: a `phase` ends its subject's interval (unless it is the same
    /// phase) and begins one; a `dismiss` ends its window's; a `launch`, `terminate`, `kill` or
    /// `willTerminate` ends every open interval (in the order of their subjects).
    package mutating func apply(_ kind: LifecycleEvent.Kind) -> [Change] {
        switch kind {
        case .phase(let phase, let window):
            let subject = window ?? Self.app
            if let current = open[subject] {
                if current == phase { return [] }
                open[subject] = phase
                return [.end(subject: subject, phase: current), .begin(subject: subject, phase: phase)]
            }
            open[subject] = phase
            return [.begin(subject: subject, phase: phase)]
        case .dismiss(let window, _):
            guard let current = open.removeValue(forKey: window) else { return [] }
            return [.end(subject: window, phase: current)]
        case .launch, .terminate, .kill:
            return endAll()
        case .delegate(let callback, _) where callback == "willTerminate":
            return endAll()
        default:
            return []
        }
    }

    private mutating func endAll() -> [Change] {
        defer { open = [:] }
        return open.sorted { $0.key < $1.key }.map { .end(subject: $0.key, phase: $0.value) }
    }
}
