/// `missed-background-save`: unsaved keys went to the background and no save came before they
/// left it (or their window, or the run, ended). The model decides each background save
/// (``Transition/backgroundSaveMissed(_:)``); this rule gathers the keys missed at each seq
/// and reports them together once no later event can add to them (``settle(below:_:_:)``).
package struct MissedBackgroundSave: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.backgroundSaveMissed]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/missed-background-save-shared", "rules/missed-background-save-negative"]

    /// The rule as it starts a trace.
    package init() {}

    /// Missed keys by the seq they went to the background at, with their last writes.
    var missed: [UInt64: (keys: Set<KeyRef>, related: Set<UInt64>, subject: FindingSubject?)] = [:]

    /// Whether anything waits to be reported.
    @inline(__always)
    var isEmpty: Bool { missed.isEmpty }

    /// Background saves wait for the state to come back or the run to end.
    @inline(__always) package var waitsToSettle: Bool { !missed.isEmpty }

    /// A process set aside while another runs holds back its waiting saves' anchors: they cannot
    /// be decided until it runs again. (In the running process they settle through ``settle(below:_:_:)``.)
    package func undecidedSince(whileParked: Bool) -> UInt64? { whileParked ? missed.keys.min() : nil }

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .backgroundSaveMissed(let pending) = transition else { return }
        record(pending, &model)
    }

    /// The view is `inout` only to be passed by address (a `borrowing` one is copied whole).
    private mutating func record(_ pending: PendingSave, _ model: inout ModelView) {
        // The scenes of the windows that own scene keys, while they are still open.
        let subject = model.subject(keys: pending.keys)
        let related = model.lastWriteSeqs(pending.keys)
        // In place: a copy of the record at each window's decision made a background of N windows
        // quadratic. The subject keeps the first of each list, as the report does
        // (FindingSubject.bounded()), so merging it stays small.
        missed[pending.seq, default: (keys: [], related: [], subject: nil)].keys.formUnion(pending.keys)
        missed[pending.seq]!.related.formUnion(related)  // `!`: made just above
        let merged = missed[pending.seq]!.subject.map { $0.merging(subject) } ?? subject  // `!`: as above
        missed[pending.seq]!.subject = merged.bounded()
    }

    /// Reports the keys missed at every seq below `mark` (the watermark: the model holds it
    /// below every background save still undecided).
    package mutating func settle(below mark: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        guard !missed.isEmpty else { return }
        for seq in missed.keys.sorted() where seq < mark {
            // `!`: seq comes from missed.keys.
            let record = missed.removeValue(forKey: seq)!
            let keys = record.keys
            findings.report(.missedBackgroundSave, at: seq, related: Array(record.related), subject: record.subject,
                            "Unsaved \(model.list(keys)) went to the background here and no save followed before \(keys.count == 1 ? "it" : "they") left the background or the process ended: a suspended app can be killed without notice. Save when the scene phase becomes .inactive or .background (onChange(of: scenePhase)), not later.")
        }
    }
}

extension MissedBackgroundSave: DescribedRule {
    /// `missed-background-save` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .missedBackgroundSave, defaultSeverity: .error,
        summary: "Unsaved state went to the background and was never saved there.",
        fix: "Save when the scene phase becomes `.inactive` or `.background`, not later.",
        anchor: "the event that sent the unsaved state to the background",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `missed-background-save`: Unsaved state went to the background and was never saved there.
    public static let missedBackgroundSave = Rule(catalogue: "missed-background-save")
}
