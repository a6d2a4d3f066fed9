/// Every rule of the catalogue, as concrete values (so each transition reaches
/// them by static dispatch), and an app's own rules (``LifecycleRule``), reached
/// through an existential only when there are some. It routes each
/// ``Transition`` to the rules that listen to it; the rules report into
/// ``findings``.
package struct RuleSet: Sendable {
    var findings: FindingQueue
    var now = EventTime()

    /// The catalogue's rules and their routing (generated: `Rules/generated/CatalogueRules.swift`).
    var catalogue: CatalogueRules
    var custom: CustomRules?
    let hasCustom: Bool

    init(configuration: RuleConfiguration, custom: [any LifecycleRule]) {
        findings = FindingQueue(configuration: configuration)
        catalogue = CatalogueRules(configuration: configuration)
        self.custom = custom.isEmpty ? nil : CustomRules(rules: custom)
        hasCustom = !custom.isEmpty
    }

    /// Whether transitions only app rules hear (``Transition``'s ``Transition/keySaved(_:window:)``,
    /// an app-level phase change that is not the first active) are worth making.
    @inline(__always)
    var hearsAppOnly: Bool { hasCustom }

    /// Whether a window's phase change is worth telling: app rules hear every one; the catalogue only
    /// those that skip `inactive` (`phase-skip`; `app-phase-mismatch` judges the app-level phase).
    @inline(__always)
    func hearsWindowPhase(from: LifecyclePhase, to: LifecyclePhase) -> Bool {
        hasCustom || PhaseSkip.skipsInactive(from, to)
    }

    /// Whether a shared write is worth telling: app rules hear every one; the catalogue only those
    /// that may overwrite a change unseen (`lost-update`).
    @inline(__always)
    func hearsSharedWrite(base: UInt64, current: UInt64) -> Bool {
        hasCustom || base < current
    }

    /// Tells `transition` to the rules that hear it, then to the app's rules. The model is `inout`
    /// only so that it is passed by address, never copied: the rules see it as a ``ModelView``,
    /// which only reads. Out of line: inlined into the model's methods, its closure made some of
    /// them (`applySave`) copy the whole model.
    @inline(never)
    mutating func observe(_ transition: Transition, _ model: inout LifecycleModel) {
        ModelView.with(&model) { catalogue.observe(transition, at: now, &$0, &findings) }
        if custom != nil { observeCustom(transition, &model) }
    }

    @inline(never)
    private mutating func observeCustom(_ transition: Transition, _ model: inout LifecycleModel) {
        guard let event = ModelView.with(&model, { LifecycleTransition(transition, $0) }) else { return }
        custom?.observe(event, at: now, &model, &findings)
    }

    /// A `group` write that overwrote another process's change unseen (the reducer sees it across processes).
    mutating func observe(_ loss: GroupWriteLoss, at seq: UInt64) {
        catalogue.lostUpdate.observe(loss, at: seq, &findings)
    }

    /// ``undecided(below:)`` of a process set aside while another runs: decisions its rules hold
    /// back hold back findings too, as they cannot settle until it runs again.
    func undecidedWhileParked(below mark: UInt64) -> UInt64 {
        var mark = catalogue.undecided(below: mark, whileParked: true)
        if let custom { mark = min(mark, custom.undecided(below: mark)) }
        return mark
    }

    mutating func afterEvent(seq: UInt64, _ model: inout LifecycleModel) {
        ModelView.with(&model) { catalogue.afterEvent(seq: seq, $0, &findings) }
    }

    @inline(__always)
    var hasUnsettled: Bool { !findings.unsettled.isEmpty || catalogue.waitsToSettle }

    @inline(__always)
    func undecided(below mark: UInt64) -> UInt64 {
        var mark = catalogue.undecided(below: mark, whileParked: false)
        if let custom { mark = min(mark, custom.undecided(below: mark)) }
        return mark
    }

    mutating func settle(below mark: UInt64, _ model: inout LifecycleModel) {
        ModelView.with(&model) { catalogue.settle(below: mark, $0, &findings) }
        findings.settle(below: mark)
    }

    /// Decides what the rules hold back (the end of the trace).
    mutating func decideWaiting(_ model: inout LifecycleModel) {
        ModelView.with(&model) { catalogue.settle(below: .max, $0, &findings) }
    }

    mutating func finish(_ model: inout LifecycleModel) {
        ModelView.with(&model) { catalogue.finish($0, &findings) }
        custom?.finish(at: now, &model, &findings)
    }
}
