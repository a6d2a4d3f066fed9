/// `unsupported-scene`: a launch declares a scene kind its platform does not have.
package struct UnsupportedScene: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runStarted]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unsupported-scene", "rules/unsupported-scene-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .runStarted(let launch) = transition,
              launch.scenes.contains(where: { !Self.platform(launch.platform, supports: $0.known) }) else { return }
        let unsupported = launch.scenes.filter { !Self.platform(launch.platform, supports: $0.known) }
        let shown = FindingBound.list(unsupported) { "\($0.kind.rawValue) \"\(model.names[$0.id])\"" }
        findings.report(.unsupportedScene, at: now.seq, related: [],
                        subject: FindingSubject(scenes: unsupported.map { model.names[$0.id] }, details: [launch.platform.rawValue]),
                        "The launch on \(launch.platform.rawValue) declares \(shown), which \(launch.platform.rawValue) does not have. Wrap the scene in #if os(…) so that it is declared only where it exists.")
    }

    static func platform(_ platform: Platform, supports kind: KnownSceneKind) -> Bool {
        switch kind {
        case .settings, .menuBarExtra: return platform == .macOS
        case .window: return platform == .macOS || platform == .visionOS
        case .immersiveSpace: return platform == .visionOS
        case .documentGroup: return platform != .tvOS && platform != .watchOS
        case .windowGroup, .other: return true
        }
    }
}

extension UnsupportedScene: DescribedRule {
    /// `unsupported-scene` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unsupportedScene, defaultSeverity: .warning,
        summary: "A scene kind the platform does not have.",
        fix: "Wrap platform-only scenes in `#if os(…)`.",
        anchor: "the `launch`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unsupported-scene`: A scene kind the platform does not have.
    public static let unsupportedScene = Rule(catalogue: "unsupported-scene")
}
