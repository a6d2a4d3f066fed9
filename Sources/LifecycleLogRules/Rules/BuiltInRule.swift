/// A rule of the catalogue: a value holding its own state, told every transition it
/// listens to (``RuleSet`` routes them) with the model as it is at that moment.
/// It reports through `findings` and reads no other rule's state.
///
/// A rule is found by itself: the package's `generate-catalogue` tool finds every
/// `struct X: BuiltInRule` in `Rules/` (one to a file named for it), reads its ``hears`` and
/// ``exampleFixtures`` as written there, and writes the routing (`Rules/generated/`). Its place in
/// the catalogue is its section's in spec/rules.md.
package protocol BuiltInRule: DescribedRule, Sendable {
    /// The transitions it hears, written as one array literal of ``TransitionKind`` cases (the
    /// generator reads it as written; a test checks it read what the compiler does).
    static var hears: [TransitionKind] { get }
    /// Its examples: fixtures' paths in `traces/` without `.jsonl`, one that fires and one whose
    /// name ends in `-negative` that stays quiet, written as one array literal of string literals.
    /// The generator copies their events into the rule's ``RuleDescription``.
    static var exampleFixtures: [String] { get }
    /// The thresholds it judges by, which a `--rules` file may set (``RuleConfiguration``).
    static var thresholds: [RuleThreshold] { get }
    /// The rule as it starts a trace, with the catalogue's thresholds.
    init()
    /// The rule as it starts a trace, with the thresholds `configuration` gives.
    init(configuration: RuleConfiguration)
    /// Hears one transition at the event `now` (one of its ``hears``).
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
    /// No thresholds.
    package static var thresholds: [RuleThreshold] { [] }
    /// A rule without thresholds starts the same whatever the configuration.
    package init(configuration: RuleConfiguration) { self.init() }
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
