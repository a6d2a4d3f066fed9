/// `unsupported-scene`: a launch declares a scene kind its platform does not have.
package struct UnsupportedScene: BuiltInRule {
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
    /// generated from it), with examples from `traces/rules/unsupported-scene.jsonl` and `traces/rules/unsupported-scene-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .unsupportedScene, defaultSeverity: .warning,
        summary: "A scene kind the platform does not have.",
        fix: "Wrap platform-only scenes in `#if os(…)`.",
        anchor: "the `launch`",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"prefs","kind":"Settings"},{"id":"menu","kind":"MenuBarExtra"},{"id":"about","kind":"Window"},{"id":"space","kind":"ImmersiveSpace"}]}
            {"event":"terminate","t":50}
            {"event":"launch","t":100,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"prefs","kind":"Settings"},{"id":"menu","kind":"MenuBarExtra"},{"id":"about","kind":"Window"},{"id":"space","kind":"ImmersiveSpace"}]}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"visionOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"about","kind":"Window"},{"id":"space","kind":"ImmersiveSpace"},{"id":"docs","kind":"DocumentGroup"}]}
            {"event":"terminate","t":10}
            {"event":"launch","t":100,"platform":"tvOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"terminate","t":110}
            """#,
        ])
}
