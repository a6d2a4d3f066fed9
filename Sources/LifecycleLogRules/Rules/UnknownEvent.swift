/// `unknown-event`: an event kind this version does not know, reported once per kind.
package struct UnknownEvent: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/unknown-event.jsonl` and `traces/rules/unknown-event-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unknownEvent, defaultSeverity: .warning,
        summary: "An event kind this version does not know.",
        fix: "A newer recorder's event kind: update LifecycleLog or fix the spelling.",
        anchor: "the first event of the unknown kind",
        fires: [
            #"""
            {"event":"gesture","t":0,"kind":"tap","x":10.5}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"gesture","t":10,"kind":"swipe"}
            {"event":"focus","t":20,"window":"w7"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main","x-device":"iPhone 16"}
            {"event":"mark","t":20,"label":"ok","x-step":3}
            """#,
        ])
}
