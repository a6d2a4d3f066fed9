/// `kill-exposure` (what-if, `--explore`): a stretch of events during which the app was inactive
/// or in the background with unsaved keys, so a kill there would have lost them.
///
/// After a willTerminate the run's end event is not known yet (trace-format.md, Readings 9): a
/// `terminate` or `kill` that follows is the end, and the events before it belong to stretches as
/// usual; a `launch` or the end of the trace makes the willTerminate the end, and then no stretch
/// includes it or anything after it (rules.md, Readings 21). So from the willTerminate on, what
/// the stretches would be is kept aside until the run's end says which reading holds.
package struct KillExposure: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runEnded]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["explore/kill-exposure", "explore/kill-exposure-negative"]

    /// The rule as it starts a trace.
    package init() {}

    /// The stretch going on, if any.
    var stretch: ExposureStretch?
    /// After a willTerminate: the stretch as it stood just before it (the one to report if the
    /// willTerminate turns out to be the run's end), and the stretches closed since.
    var awaitingEnd: AwaitingEnd?

    /// A stretch of events during which a kill would have lost unsaved state.
    struct ExposureStretch {
        var firstSeq: UInt64
        var lastSeq: UInt64
        var keys: Set<KeyRef>
    }

    /// What the stretches are while a run waits for its end after its willTerminate.
    struct AwaitingEnd {
        var beforeWillTerminate: ExposureStretch?
        var closed: [ExposureStretch] = []
    }

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition else { return }
        runEnded(atWillTerminate: { if case .willTerminate = end.how { return true } else { return false } }(), &model, &findings)
    }

    /// Extends or closes the stretch after each event.
    package mutating func afterEvent(seq: UInt64, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        if awaitingEnd == nil, model.awaitsEndAfterWillTerminate {
            awaitingEnd = AwaitingEnd(beforeWillTerminate: stretch)
        }
        guard model.wouldLoseStateToKill else { close(model, &findings); return }
        let dirty = model.dirtyKeys()
        if stretch == nil {
            stretch = ExposureStretch(firstSeq: seq, lastSeq: seq, keys: dirty)
        } else {
            stretch?.lastSeq = seq
            stretch?.keys.formUnion(dirty)
        }
    }

    /// ``firstSeq``, in every process: a stretch may still end up reported at its first event.
    package func undecidedSince(whileParked: Bool) -> UInt64? { firstSeq }

    /// The lowest seq a stretch, going on or kept aside, is anchored at, if any.
    var firstSeq: UInt64? {
        var first = stretch?.firstSeq
        if let awaitingEnd {
            for seq in [awaitingEnd.beforeWillTerminate?.firstSeq] + awaitingEnd.closed.map(\.firstSeq) {
                if let seq { first = min(first ?? seq, seq) }
            }
        }
        return first
    }

    /// The run ended: at its willTerminate (only the stretch before it counts) or at an end event
    /// of its own (every stretch counts). The view is `inout` only to be passed by address (a
    /// `borrowing` one is copied whole at each call, and this runs at every run's end); `close`
    /// is called only when there is a stretch to close, for the same reason.
    private mutating func runEnded(atWillTerminate: Bool, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard let awaiting = awaitingEnd else {
            if stretch != nil { close(model, &findings) }
            return
        }
        awaitingEnd = nil
        if atWillTerminate {
            stretch = nil
            if let before = awaiting.beforeWillTerminate { report(before, model, &findings) }
        } else {
            for closed in awaiting.closed { report(closed, model, &findings) }
            close(model, &findings)
        }
    }

    /// At the end of the trace: reports the stretch going on, if any.
    package mutating func finish(_ model: borrowing ModelView, _ findings: inout FindingQueue) { close(model, &findings) }

    /// Reports the stretch going on, if any (kept aside while the run waits for its end).
    mutating func close(_ model: borrowing ModelView, _ findings: inout FindingQueue) {
        guard let stretch else { return }
        self.stretch = nil
        if awaitingEnd != nil {
            awaitingEnd?.closed.append(stretch)
        } else {
            report(stretch, model, &findings)
        }
    }

    private func report(_ stretch: ExposureStretch, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        let keys = stretch.keys
        // A one-event stretch is worded as one ("From seq 8 to seq 8" read as a typo; issue 30: 6).
        let when = stretch.firstSeq == stretch.lastSeq
            ? "For one event, at seq \(stretch.firstSeq),"
            : "From seq \(stretch.firstSeq) to seq \(stretch.lastSeq)"
        findings.report(.killExposure, at: stretch.firstSeq, related: [stretch.lastSeq], subject: model.subject(keys: keys),
                        "\(when) the app was inactive or in the background with unsaved \(model.list(keys)); a kill there (app switcher, suspension) would have lost \(keys.count == 1 ? "it" : "them"). Save as soon as the scene phase leaves .active.")
    }
}

extension KillExposure: DescribedRule {
    /// `kill-exposure` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .killExposure, defaultSeverity: .warning,
        summary: "What-if: a kill while inactive or in the background would lose unsaved state.",
        fix: "Save as soon as the phase leaves `.active`.",
        anchor: "the first event of the stretch",
        whatIf: true,
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `kill-exposure`: What-if: a kill while inactive or in the background would lose unsaved state.
    public static let killExposure = Rule(catalogue: "kill-exposure")
}
