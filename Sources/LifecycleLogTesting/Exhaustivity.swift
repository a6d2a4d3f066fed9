/// How much of a session's findings an assertion checks, as TCA's `TestStore.exhaustivity` does
/// for state changes.
///
/// ```swift
/// // Only the lost update matters to this test; whatever else the rules find is ignored.
/// assertFindings(in: .recorder(recorder), [ExpectedFinding(.lostUpdate, at: 8)], exhaustivity: .off)
/// ```
public enum Exhaustivity: Sendable, Hashable {
    /// Every finding must be expected: a finding the test did not name fails it (the default).
    case on
    /// Only the findings named must be found; the others are ignored. The failure message of a
    /// missing finding still lists the ignored ones, as context, so that a near miss (another
    /// seq, another severity) is easy to spot.
    case off
}
