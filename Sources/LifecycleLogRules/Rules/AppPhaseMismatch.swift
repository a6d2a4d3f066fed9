/// `app-phase-mismatch`: an app-level phase event disagrees with the windows that have phases of their own.
package struct AppPhaseMismatch: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.phaseChanged]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/app-phase-mismatch", "rules/app-phase-mismatch-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .phaseChanged(nil, _, let newPhase) = transition else { return }
        // The aggregate of the windows with phases of their own, from the model's counts of them
        // (kept by `setOwnPhase`): no scan of the windows at each app-level phase event.
        let counts = model.ownPhaseCounts
        guard counts.active + counts.inactive + counts.background > 0 else { return }
        let aggregate: LifecyclePhase = counts.active > 0 ? .active : counts.inactive > 0 ? .inactive : .background
        if aggregate != newPhase { report(newPhase, aggregate: aggregate, now, &findings) }
    }

    @inline(never)
    private func report(_ newPhase: LifecyclePhase, aggregate: LifecyclePhase, _ now: EventTime, _ findings: inout FindingQueue) {
        findings.report(.appPhaseMismatch, at: now.seq, related: [], subject: FindingSubject(details: ["\(newPhase.rawValue) over \(aggregate.rawValue)"]),
                        "The app-level phase became \(newPhase.rawValue), but the windows with phases of their own add up to \(aggregate.rawValue). The App's scenePhase is the aggregate of its scenes; record the App's onChange(of: scenePhase) and each window's from the same source, in the order they happen.")
    }
}

extension AppPhaseMismatch: DescribedRule {
    /// `app-phase-mismatch` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .appPhaseMismatch, defaultSeverity: .warning,
        summary: "The app-level phase disagrees with its windows' phases.",
        fix: "Record the App's and each window's `scenePhase` from the same source.",
        anchor: "the app-level `phase`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `app-phase-mismatch`: The app-level phase disagrees with its windows' phases.
    public static let appPhaseMismatch = Rule(catalogue: "app-phase-mismatch")
}
