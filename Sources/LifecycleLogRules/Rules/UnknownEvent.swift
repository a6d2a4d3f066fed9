/// `unknown-event`: an event kind this version does not know, reported once per kind.
package struct UnknownEvent: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.unknownEvent]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unknown-event", "rules/unknown-event-negative"]

    /// The rule as it starts a trace.
    package init() {}

    /// The unknown kinds reported so far.
    var seen: Set<Name> = []

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .unknownEvent(let kind) = transition, seen.insert(kind).inserted else { return }
        findings.report(.unknownEvent, at: now.seq, related: [], subject: FindingSubject(details: ["event:\(model.names[kind])"]),
                        "Event kind \"\(model.names[kind])\" is not known to this version; it is kept and exported but not interpreted. Check the spelling, or update LifecycleLog if it is a newer kind.")
    }
}

extension UnknownEvent: DescribedRule {
    /// `unknown-event` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unknownEvent, defaultSeverity: .warning,
        summary: "An event kind this version does not know.",
        fix: "A newer recorder's event kind: update LifecycleLog or fix the spelling.",
        anchor: "the first event of the unknown kind",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unknown-event`: An event kind this version does not know.
    public static let unknownEvent = Rule(catalogue: "unknown-event")
}
