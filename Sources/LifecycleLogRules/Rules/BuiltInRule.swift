/// A rule of the catalogue: a value holding its own state, told every transition it
/// listens to (``RuleSet`` routes them) with the model as it is at that moment.
/// It reports through `findings` and reads no other rule's state.
package protocol BuiltInRule: DescribedRule, Sendable {
    /// Hears one transition at the event `now` (one it hears: `Rules/catalogue.list`).
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue)
    /// After every event, with `--explore` (the what-if rules).
    mutating func afterEvent(seq: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue)
    /// At the end of the trace: decide what still waits.
    mutating func finish(_ model: borrowing ModelView, _ findings: inout FindingQueue)
    /// Report the decisions held back (``waitsToSettle``) anchored below `mark`.
    mutating func settle(below mark: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue)
    /// Whether the rule holds a decision that waits to settle.
    var waitsToSettle: Bool { get }
    /// The lowest seq the rule may still anchor a finding at, or `nil`; `whileParked` for a process
    /// set aside while another runs.
    func undecidedSince(whileParked: Bool) -> UInt64?
}

extension BuiltInRule {
    /// Nothing after an event.
    @inline(__always) package mutating func afterEvent(seq: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue) {}
    /// Nothing waits for the end.
    @inline(__always) package mutating func finish(_ model: borrowing ModelView, _ findings: inout FindingQueue) {}
    /// Nothing held back.
    @inline(__always) package mutating func settle(below mark: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue) {}
    /// Nothing held back.
    @inline(__always) package var waitsToSettle: Bool { false }
    /// Reports only at the event being applied.
    @inline(__always) package func undecidedSince(whileParked: Bool) -> UInt64? { nil }
}
