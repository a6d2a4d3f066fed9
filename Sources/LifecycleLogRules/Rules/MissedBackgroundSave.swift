/// `missed-background-save`: unsaved keys went to the background and no save came before they
/// left it (or their window, or the run, ended). The model decides each background save
/// (``Transition/backgroundSaveMissed(_:)``); this rule gathers the keys missed at each seq
/// and reports them together once no later event can add to them (``settle(below:_:_:)``).
package struct MissedBackgroundSave: BuiltInRule {
    /// Missed keys by the seq they went to the background at, with their last writes.
    var missed: [UInt64: (keys: Set<KeyRef>, related: Set<UInt64>, subject: FindingSubject?)] = [:]

    /// Whether anything waits to be reported.
    @inline(__always)
    var isEmpty: Bool { missed.isEmpty }

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .backgroundSaveMissed(let pending) = transition else { return }
        record(pending, model)
    }

    private mutating func record(_ pending: PendingSave, _ model: LifecycleModel) {
        var record = missed[pending.seq] ?? (keys: [], related: [], subject: nil)
        record.keys.formUnion(pending.keys)
        record.related.formUnion(model.lastWriteSeqs(pending.keys))
        // The scenes of the windows that own scene keys, while they are still open.
        let subject = model.subject(keys: pending.keys)
        record.subject = record.subject.map { $0.merging(subject) } ?? subject
        missed[pending.seq] = record
    }

    /// Reports the keys missed at every seq below `mark` (the watermark: the model holds it
    /// below every background save still undecided).
    mutating func settle(below mark: UInt64, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        for seq in missed.keys.sorted() where seq < mark {
            // `!`: seq comes from missed.keys.
            let record = missed.removeValue(forKey: seq)!
            let keys = model.ordered(record.keys)
            findings.report(.missedBackgroundSave, at: seq, related: record.related.sorted(), subject: record.subject,
                            "Unsaved \(model.list(keys)) went to the background here and no save followed before \(keys.count == 1 ? "it" : "they") left the background or the process ended: a suspended app can be killed without notice. Save when the scene phase becomes .inactive or .background (onChange(of: scenePhase)), not later.")
        }
    }
}
