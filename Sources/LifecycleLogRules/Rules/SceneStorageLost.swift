/// `scene-storage-lost`: a restored window read a scene key as empty that the window it restores had saved.
package struct SceneStorageLost: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.keyRead]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/scene-storage-lost", "rules/scene-storage-lost-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .keyRead(let name, .scene, let window?, 0) = transition, model.openWindows[window].restored else { return }
        check(name, window: window, now, &model, &findings)
    }

    @inline(never)
    private func check(_ name: Name, window: Int, _ now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard let saved = model.openWindows[window].restoredFrom[name], saved > 0 else { return }
        findings.report(.sceneStorageLost, at: now.seq, related: [model.openWindows[window].openSeq],
                        subject: model.subject(keys: [model.openWindows[window].sceneKeyRef(name)], windows: [window]),
                        "Restored window \(model.names[model.openWindows[window].id]) read scene key \"\(model.names[name])\" as empty (version 0), but the window it restores had saved version \(saved). Keep the window's state in @SceneStorage (or restore it in .onAppear from what was saved) instead of starting empty.")
    }
}

extension SceneStorageLost: DescribedRule {
    /// `scene-storage-lost` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .sceneStorageLost, defaultSeverity: .warning,
        summary: "A restored window read its scene storage as empty.",
        fix: "Keep window state in `@SceneStorage` or restore it in `.onAppear`.",
        anchor: "the `read`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `scene-storage-lost`: A restored window read its scene storage as empty.
    public static let sceneStorageLost = Rule(catalogue: "scene-storage-lost")
}
