/// `event-before-launch`: an event while no process runs (before the first launch, after terminate
/// or a kill), a `kill` with no run included.
package struct EventBeforeLaunch: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.outsideRun]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/event-before-launch", "rules/event-before-launch-negative"]

    /// The rule as it starts a trace.
    package init() {}

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
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .eventBeforeLaunch, defaultSeverity: .error,
        summary: "An event before the first launch or after the run's terminate or kill.",
        fix: "The recorder's first call is `launch`; nothing after `terminate` or a `kill`.",
        anchor: "the event",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `event-before-launch`: An event before the first launch or after the run's terminate or kill.
    public static let eventBeforeLaunch = Rule(catalogue: "event-before-launch")
}
