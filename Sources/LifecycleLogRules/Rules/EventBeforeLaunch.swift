/// `event-before-launch`: an event while no process runs (before the first launch, after terminate
/// or a kill), a `kill` with no run included.
package struct EventBeforeLaunch: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .outsideRun(let event) = transition else { return }
        let after = model.run.terminateSeq
        let name = event.kindName(model.names)
        findings.report(.eventBeforeLaunch, at: now.seq, related: after.map { [$0] } ?? [], subject: FindingSubject(details: ["event:\(name)", after == nil ? "before the first launch" : "after the run's end"]),
                        after.map { model.run.endedByKill || event.kind == .kill
                            ? "\(LifecycleModel.article(name)) \(name) event comes after the run ended with \(model.run.endedByKill ? "a kill" : "terminate") at seq \($0) and before the next launch: no process is running to do it. Record a launch first, drop events after the run's end, and give a test runner's kill the process of the app it ended."
                            : "\(LifecycleModel.article(name)) \(name) event comes after the run ended with terminate at seq \($0) and before the next launch: no process is running to do it. Record a launch first, or drop events after terminate." }
                            ?? "\(LifecycleModel.article(name)) \(name) event comes before the first launch: no process is running yet. Start the trace with a launch event (the recorder's first call should be launch).")
    }
}

extension EventBeforeLaunch: DescribedRule {
    /// `event-before-launch` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with examples from `traces/rules/event-before-launch.jsonl` and `traces/rules/event-before-launch-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .eventBeforeLaunch, defaultSeverity: .error,
        summary: "An event before the first launch or after the run's terminate or kill.",
        fix: "The recorder's first call is `launch`; nothing after `terminate` or a `kill`.",
        anchor: "the event",
        fires: [
            #"""
            {"event":"mark","t":0,"label":"start of test"}
            {"event":"open","t":1,"window":"w1","scene":"main"}
            {"event":"launch","t":2,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"terminate","t":20}
            {"event":"phase","t":25,"phase":"background"}
            {"event":"mark","t":26,"label":"between runs"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"mark","t":0,"label":"test: cold start"}
            {"event":"launch","t":1,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"terminate","t":20}
            {"event":"mark","t":30,"label":"test: relaunch"}
            {"event":"launch","t":40,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"open","t":50,"window":"w1","scene":"main"}
            """#,
        ])
}
