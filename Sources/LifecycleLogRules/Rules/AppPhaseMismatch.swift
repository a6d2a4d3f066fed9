/// `app-phase-mismatch`: an app-level phase event disagrees with the windows that have phases of their own.
package struct AppPhaseMismatch: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/app-phase-mismatch.jsonl` and `traces/rules/app-phase-mismatch-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .appPhaseMismatch, defaultSeverity: .warning,
        summary: "The app-level phase disagrees with its windows' phases.",
        fix: "Record the App's and each window's `scenePhase` from the same source.",
        anchor: "the app-level `phase`",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iPadOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"open","t":11,"window":"w2","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"phase","t":30,"phase":"background"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"iPadOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"open","t":11,"window":"w2","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"phase","t":21,"phase":"active"}
            {"event":"phase","t":30,"window":"w1","phase":"inactive"}
            {"event":"phase","t":31,"window":"w2","phase":"inactive"}
            {"event":"phase","t":32,"phase":"inactive"}
            {"event":"phase","t":40,"window":"w2","phase":"background"}
            {"event":"phase","t":41,"phase":"inactive"}
            {"event":"phase","t":50,"window":"w1","phase":"background"}
            {"event":"phase","t":51,"phase":"background"}
            """#,
        ])
}
