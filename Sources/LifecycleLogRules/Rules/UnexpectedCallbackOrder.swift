/// `unexpected-callback-order`: the recorder saw Apple's callbacks contradict an assumption of
/// spec/apple-order.md, and wrote a `diagnostic` event (issue 29). Reported at each one: what the
/// run records near it may be wrong, and the rules that read it hold their findings back
/// (rules.md, Readings 25).
package struct UnexpectedCallbackOrder: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.diagnostic]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unexpected-callback-order", "rules/unexpected-callback-order-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .diagnostic(let diagnostic) = transition else { return }
        let check = diagnostic.check
        let about = diagnostic.window.map { " (window \($0))" } ?? ""
        findings.report(.unexpectedCallbackOrder, at: now.seq, related: [],
                        subject: FindingSubject(details: ["check:\(check)"]),
                        "The recorder saw Apple's callbacks contradict its assumption \(check) (spec/apple-order.md)\(about): \(diagnostic.message). "
                        + "What this run records there may be wrong; please report it with the OS version and this trace.")
    }
}

extension UnexpectedCallbackOrder: DescribedRule {
    /// `unexpected-callback-order` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unexpectedCallbackOrder, defaultSeverity: .warning,
        summary: "The recorder saw Apple's callbacks contradict what it assumes (a `diagnostic` event), so the recording may be wrong there.",
        fix: "Report it with the OS version and the trace; spec/apple-order.md names the assumption.",
        anchor: "the `diagnostic` event",
        since: 3,
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unexpected-callback-order`: The recorder saw Apple's callbacks contradict what it assumes (a `diagnostic` event), so the recording may be wrong there.
    public static let unexpectedCallbackOrder = Rule(catalogue: "unexpected-callback-order")
}
