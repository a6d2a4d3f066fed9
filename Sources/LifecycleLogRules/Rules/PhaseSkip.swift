/// `phase-skip`: outside macOS, a phase went between background and active without inactive between.
package struct PhaseSkip: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.phaseChanged]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/phase-skip", "rules/phase-skip-negative"]

    /// The rule as it starts a trace.
    package init() {}

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
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .phaseSkip, defaultSeverity: .warning,
        summary: "A phase change skipped inactive (UIKit always passes through it).",
        fix: "Observe `scenePhase` in every window's root view; UIKit passes through `.inactive`.",
        anchor: "the `phase`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `phase-skip`: A phase change skipped inactive (UIKit always passes through it).
    public static let phaseSkip = Rule(catalogue: "phase-skip")
}
