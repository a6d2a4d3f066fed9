/// `unknown-event`: an event kind this version does not know, reported once per kind.
package struct UnknownEvent: BuiltInRule {
    /// The unknown kinds reported so far.
    var seen: Set<Name> = []

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .unknownEvent(let kind) = transition, seen.insert(kind).inserted else { return }
        findings.report(.unknownEvent, at: now.seq, related: [], subject: FindingSubject(details: ["event:\(model.names[kind])"]),
                        "Event kind \"\(model.names[kind])\" is not known to this version; it is kept and exported but not interpreted. Check the spelling, or update LifecycleLog if it is a newer kind.")
    }
}
