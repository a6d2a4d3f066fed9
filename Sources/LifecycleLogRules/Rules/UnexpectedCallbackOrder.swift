/// `unexpected-callback-order`: the recorder saw Apple's callbacks contradict an assumption of
/// spec/apple-order.md, and wrote a `diagnostic` event (issue 29). Reported at each one: what the
/// run records near it may be wrong, and the rules that read it hold their findings back
/// (rules.md, Readings 25).
package struct UnexpectedCallbackOrder: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/unexpected-callback-order.jsonl` and
    /// `traces/rules/unexpected-callback-order-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unexpectedCallbackOrder, defaultSeverity: .warning,
        summary: "The recorder saw Apple's callbacks contradict what it assumes (a `diagnostic` event), so the recording may be wrong there.",
        fix: "Report it with the OS version and the trace; spec/apple-order.md names the assumption.",
        anchor: "the `diagnostic` event",
        since: 3,
        fires: [
            #"""
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"reason":"background"}
            {"event":"phase","t":0,"phase":"background"}
            {"event":"diagnostic","t":350,"check":"A2","message":"a scene connected 350 ms after the launch sequence ended with none"}
            {"event":"open","t":360,"window":"w1","scene":"main"}
            {"event":"phase","t":3800,"phase":"inactive","window":"w1"}
            {"event":"phase","t":3900,"phase":"active","window":"w1"}
            """#,
        ],
        quiet: [
            #"""
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"diagnostic","t":5,"check":"A2"}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"phase":"active","window":"w1"}
            """#,
        ])
}
