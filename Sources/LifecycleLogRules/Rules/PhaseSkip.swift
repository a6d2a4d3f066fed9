/// `phase-skip`: outside macOS, a phase went between background and active without inactive between.
package struct PhaseSkip: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .phaseChanged(let window, let from, let to) = transition, Self.skipsInactive(from, to) else { return }
        report(window: window, from: from, to: to, now, model, &findings)
    }

    @inline(never)
    private func report(window: Int?, from: LifecyclePhase, to: LifecyclePhase, _ now: EventTime, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        guard model.run.platform != .macOS else { return }
        let subject = window.map { "window \(model.names[model.openWindows[$0].id])" } ?? "the app-level phase"
        findings.report(.phaseSkip, at: now.seq, related: [],
                        subject: model.subject(windows: window.map { [$0] } ?? [], details: ["\(window == nil ? "app-level " : "")\(from.rawValue) to \(to.rawValue)"]),
                        "On \(model.run.platform.rawValue), \(subject) went straight from \(from.rawValue) to \(to.rawValue) without inactive between; UIKit's scene life cycle always passes through foreground-inactive. If the recorder missed the inactive change, observe scenePhase in every window's root view; if the trace is hand-written, add the inactive step.")
    }

    /// Whether going from `from` to `to` skips `inactive` (which UIKit never does; AppKit may).
    @inline(__always)
    static func skipsInactive(_ from: LifecyclePhase, _ to: LifecyclePhase) -> Bool {
        (from == .background && to == .active) || (from == .active && to == .background)
    }
}

extension PhaseSkip: DescribedRule {
    /// `phase-skip` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with examples from `traces/rules/phase-skip.jsonl` and `traces/rules/phase-skip-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .phaseSkip, defaultSeverity: .warning,
        summary: "A phase change skipped inactive (UIKit always passes through it).",
        fix: "Observe `scenePhase` in every window's root view; UIKit passes through `.inactive`.",
        anchor: "the `phase`",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"phase","t":30,"window":"w1","phase":"background"}
            {"event":"phase","t":40,"phase":"background"}
            {"event":"phase","t":50,"phase":"active"}
            {"event":"open","t":55,"window":"w2","scene":"main"}
            {"event":"phase","t":60,"window":"w2","phase":"background"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"},{"id":"about","kind":"Window"},{"id":"settings","kind":"Settings"},{"id":"status","kind":"MenuBarExtra"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"phase","t":30,"window":"w1","phase":"background"}
            {"event":"phase","t":40,"window":"w1","phase":"active"}
            {"event":"terminate","t":50}
            {"event":"launch","t":1000,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":1110,"window":"w1","scene":"main"}
            {"event":"phase","t":1120,"window":"w1","phase":"active"}
            {"event":"phase","t":1130,"window":"w1","phase":"inactive"}
            {"event":"phase","t":1140,"window":"w1","phase":"background"}
            {"event":"phase","t":1150,"window":"w1","phase":"inactive"}
            {"event":"phase","t":1160,"window":"w1","phase":"active"}
            """#,
        ])
}
