/// Which ``Transition`` a transition is, without its payload: what a rule of the catalogue declares
/// it hears (``BuiltInRule/hears``), and what the generated routing (`generate-catalogue`) switches on.
///
/// One case per case of ``Transition``, in the same order, with the same name: the generator
/// checks it, and ``Transition/kind`` is an exhaustive switch, so the compiler does too.
package enum TransitionKind: CaseIterable, Sendable {
    case unknownEvent, diagnostic, outsideRun, unknownWindow, windowIdReused
    case runStarted, runEnded
    case windowOpened, windowDismissed
    case phaseChanged, crossedBackground, appPhaseChanged, backgroundSaveMissed
    case keyWritten, keyRead, keySaved
    case activityStarted, activityStopped
    case expired

    /// The transitions most events make. The generated routing tells their rules inline, in
    /// `CatalogueRules.observe`, and every other transition's out of line (`observeRare`), so
    /// that the function every event goes through stays small. A performance decision, not a
    /// semantic one: moving a kind between the two changes no finding.
    package static let frequent: [TransitionKind] = [.phaseChanged, .keyWritten, .keyRead, .appPhaseChanged]
}

extension Transition {
    /// Which transition this is (``TransitionKind``).
    package var kind: TransitionKind {
        switch self {
        case .unknownEvent: .unknownEvent
        case .diagnostic: .diagnostic
        case .outsideRun: .outsideRun
        case .unknownWindow: .unknownWindow
        case .windowIdReused: .windowIdReused
        case .runStarted: .runStarted
        case .runEnded: .runEnded
        case .windowOpened: .windowOpened
        case .windowDismissed: .windowDismissed
        case .phaseChanged: .phaseChanged
        case .crossedBackground: .crossedBackground
        case .appPhaseChanged: .appPhaseChanged
        case .backgroundSaveMissed: .backgroundSaveMissed
        case .keyWritten: .keyWritten
        case .keyRead: .keyRead
        case .keySaved: .keySaved
        case .activityStarted: .activityStarted
        case .activityStopped: .activityStopped
        case .expired: .expired
        }
    }
}
