/// `kill-exposure` (what-if, `--explore`): a stretch of events during which the app was inactive
/// or in the background with unsaved keys, so a kill there would have lost them.
struct KillExposure: BuiltInRule {
    /// The stretch going on, if any.
    var stretch: ExposureStretch?

    /// A stretch of events during which a kill would have lost unsaved state.
    struct ExposureStretch {
        var firstSeq: UInt64
        var lastSeq: UInt64
        var keys: Set<KeyRef>
    }

    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        guard case .runEnded = transition else { return }
        close(model, &findings)
    }

    /// Extends or closes the stretch after each event.
    mutating func afterEvent(seq: UInt64, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        let exposed = model.isRunning && model.dirtyCount > 0 && model.appPhase != .active
        guard exposed else { close(model, &findings); return }
        let dirty = model.dirtyKeys()
        if stretch == nil {
            stretch = ExposureStretch(firstSeq: seq, lastSeq: seq, keys: dirty)
        } else {
            stretch?.lastSeq = seq
            stretch?.keys.formUnion(dirty)
        }
    }

    /// Reports the stretch going on, if any.
    mutating func close(_ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard let stretch else { return }
        self.stretch = nil
        let keys = model.ordered(stretch.keys)
        findings.report(.killExposure, at: stretch.firstSeq, related: [stretch.lastSeq], subject: model.subject(keys: keys),
                        "From seq \(stretch.firstSeq) to seq \(stretch.lastSeq) the app was inactive or in the background with unsaved \(model.list(keys)); a kill there (app switcher, suspension) would have lost \(keys.count == 1 ? "it" : "them"). Save as soon as the scene phase leaves .active.")
    }
}
