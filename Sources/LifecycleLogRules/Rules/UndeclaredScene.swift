/// `undeclared-scene`: a window of a scene the launch did not declare, or a value for a scene declared without `for`.
package struct UndeclaredScene: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.windowOpened]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/undeclared-scene", "rules/undeclared-scene-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .windowOpened(let index, let declaration) = transition else { return }
        if declaration == nil {
            report(index, value: false, now, model, &findings)
        } else if model.openWindows[index].canonicalValue != nil, declaration?.hasPresentedType == false {
            report(index, value: true, now, model, &findings)
        }
    }

    @inline(never)
    private func report(_ index: Int, value: Bool, _ now: EventTime, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        let launchSeq = model.run.launchSeq
        let (id, scene) = (model.names[model.openWindows[index].id], model.names[model.openWindows[index].scene])
        if !value {
            let declared = model.quotedList(model.run.scenes.keys)
            findings.report(.undeclaredScene, at: now.seq, related: [launchSeq], subject: FindingSubject(scenes: [scene], details: ["undeclared"]),
                            "Window \"\(id)\" opens scene \"\(scene)\", which the launch at seq \(launchSeq) does not declare (it declares \(declared.isEmpty ? "none" : declared)). Declare the scene in the App's body, or record the launch with every scene the body declares.")
        } else {
            findings.report(.undeclaredScene, at: now.seq, related: [launchSeq], subject: FindingSubject(scenes: [scene], details: ["value without for"]),
                            "Window \"\(id)\" opens scene \"\(scene)\" with a value, but the scene is declared without `for`, so SwiftUI cannot present it. Declare it as WindowGroup(id: \"\(scene)\", for: YourValue.self), or open it with openWindow(id:).")
        }
    }
}

extension UndeclaredScene: DescribedRule {
    /// `undeclared-scene` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .undeclaredScene, defaultSeverity: .error,
        summary: "A window of a scene the app did not declare, or a value for a scene without `for`.",
        fix: "Declare the scene (with `for:` when it presents a value).",
        anchor: "the `open`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `undeclared-scene`: A window of a scene the app did not declare, or a value for a scene without `for`.
    public static let undeclaredScene = Rule(catalogue: "undeclared-scene")
}
