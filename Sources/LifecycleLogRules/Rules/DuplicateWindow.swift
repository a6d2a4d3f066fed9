/// `duplicate-window`: a second window of a single-instance scene, a second window for the same
/// value, or (rules version 2) a second immersive space of the process while one is open.
package struct DuplicateWindow: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.windowOpened]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/duplicate-window", "rules/duplicate-window-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .windowOpened(let index, let declaration?) = transition else { return }
        if declaration.known == .immersiveSpace {
            immersive(index, declaration, now, &model, &findings)
            return
        }
        let scene = model.openWindows[index].scene
        let canonical = model.openWindows[index].canonicalValue
        guard declaration.isSingleInstance || (canonical != nil && declaration.isPerValue) else { return }
        let singleInstance = declaration.isSingleInstance
        // The earliest other open window of the same scene (and value), from the model's index.
        // A window with a value has the restoration slot of its scene and value (one per pair).
        let valueSlot = singleInstance ? nil : model.openWindows[index].restorationSlot
        if let other = model.openByScene.earliest(of: scene, valueSlot: valueSlot, besides: model.openWindows[index].instance),
           let earliest = model.windowIndex(other.id) {
            report(index, other: earliest, declaration, now, model, &findings)
        }
    }

    /// An `ImmersiveSpace` opens: any open window of any `ImmersiveSpace` scene is one too many.
    @inline(never)
    private func immersive(_ index: Int, _ declaration: DeclaredScene, _ now: EventTime, _ model: inout ModelView,
                           _ findings: inout FindingQueue) {
        var earliest: Int?
        for i in model.openWindows.indices where i != index && model.run.scenes[model.openWindows[i].scene]?.known == .immersiveSpace {
            if earliest.map({ model.openWindows[i].openSeq < model.openWindows[$0].openSeq }) ?? true { earliest = i }
        }
        if let earliest { report(index, other: earliest, declaration, now, model, &findings) }
    }

    @inline(never)
    private func report(_ index: Int, other otherIndex: Int, _ declaration: DeclaredScene, _ now: EventTime, _ model: borrowing ModelView,
                        _ findings: inout FindingQueue) {
        let names = model.names
        let window = model.openWindows[index]
        let other = (id: model.openWindows[otherIndex].id, openSeq: model.openWindows[otherIndex].openSeq)
        let singleInstance = declaration.isSingleInstance
        if declaration.known == .immersiveSpace {
            findings.report(.duplicateWindow, at: now.seq, related: [other.openSeq], subject: model.subject(windows: [index, otherIndex]),
                            "Immersive space \"\(names[window.id])\" of scene \"\(names[window.scene])\" opens while immersive space \"\(names[other.id])\" (scene \"\(names[model.openWindows[otherIndex].scene])\", opened at seq \(other.openSeq)) is still open: SwiftUI shows one immersive space at a time, and openImmersiveSpace fails while another is open. Call dismissImmersiveSpace() and wait for it before opening another, and check the result of openImmersiveSpace.")
            return
        }
        let fix = singleInstance
            ? "A \(declaration.kind.rawValue) scene has one window: SwiftUI brings the open one forward instead. Check whether it is open before calling openWindow(id:), or use a WindowGroup if several are wanted."
            : "SwiftUI brings the existing window for an equal value forward instead of opening another. Open it with openWindow(value:) so SwiftUI can find it, and do not create windows for values that already have one."
        findings.report(.duplicateWindow, at: now.seq, related: [other.openSeq], subject: model.subject(windows: [index]),
                        "Window \"\(names[window.id])\" of scene \"\(names[window.scene])\" opens while window \"\(names[other.id])\" (opened at seq \(other.openSeq)) of the same scene\(singleInstance ? "" : " and value \(window.canonicalValue ?? "")") is still open. \(fix)")
    }
}

extension DuplicateWindow: DescribedRule {
    /// `duplicate-window` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .duplicateWindow, defaultSeverity: .error,
        summary: "A second window of a single-instance scene, or for the same value.",
        fix: "Let SwiftUI bring the existing window forward: `openWindow(value:)`, one `Window`/`Settings`.",
        anchor: "the second `open`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `duplicate-window`: A second window of a single-instance scene, or for the same value.
    public static let duplicateWindow = Rule(catalogue: "duplicate-window")
}
