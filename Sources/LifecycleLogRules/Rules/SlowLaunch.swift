/// `slow-launch`: a launch with UI (not background or prewarmed, activation not accessory or
/// prohibited) became active for the first time later than the watchdog limit after its launch,
/// or never became active and ended by a watchdog kill or with no known cause (not in the
/// background) past that limit (rules.md, Readings 3 and 16).
package struct SlowLaunch: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.appPhaseChanged, .runEnded]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/slow-launch", "rules/slow-launch-negative"]

    /// The watchdog limit, in milliseconds of `t`.
    let limit: Double

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        switch transition {
        case .appPhaseChanged(_, _, firstActive: true):
            firstActive(now, &model, &findings)
        case .runEnded(let end):
            killed(end, now, &model, &findings)
        default:
            break
        }
    }

    /// Whether the run is judged at all: a launch with UI, not a menu-bar app or an agent.
    static func judges(_ run: RunState) -> Bool {
        !run.isBackgroundLaunch && !run.isPrewarm && run.activation != .accessory && run.activation != .prohibited
    }

    @inline(never)
    private func firstActive(_ now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        let (launchSeq, launchT, judged) = (model.run.launchSeq, model.run.launchT, Self.judges(model.run))
        if judged, now.t - launchT > limit {
            findings.report(.slowLaunch, at: now.seq, related: [launchSeq], subject: FindingSubject(details: ["became active late"]),
                            "The app first became active \(JSONWriter.number(now.t - launchT)) ms after its launch at seq \(launchSeq); the launch watchdog kills apps that take about \(JSONWriter.number(limit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
        }
    }

    @inline(never)
    private func killed(_ end: RunEnd, _ now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        let run = model.run
        guard !run.everActive, Self.judges(run) else { return }
        let endT: Double
        let how: String
        switch end.how {
        case .killed(let kill) where kill.reason == .watchdog && end.appPhase != .background:  // rules v3: not the suspend watchdog
            (endT, how) = (kill.t, "was killed by the watchdog")
        case .killed(let kill) where end.isUnexplained(underDebugger: run.debugger) && end.appPhase != .background:
            (endT, how) = (kill.t, "was killed (reason \"\(model.names[kill.name])\")")
        case .unrecorded(let next) where end.isUnexplained(underDebugger: run.debugger) && end.appPhase != .background:
            (endT, how) = (next.t, "was killed")
        default:
            return
        }
        guard endT - run.launchT > limit else { return }
        findings.report(.slowLaunch, at: end.seq, related: [run.launchSeq], subject: FindingSubject(details: ["killed before active"]),
                        "Run \(run.number) \(how) \(JSONWriter.number(endT - run.launchT)) ms after its launch at seq \(run.launchSeq) without ever becoming active: the launch watchdog kills apps that take about \(JSONWriter.number(limit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
    }
}

extension SlowLaunch: DescribedRule {
    /// `slow-launch` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .slowLaunch, defaultSeverity: .warning,
        summary: "The app took over the watchdog limit to become active.",
        fix: "Move work out of `App.init` and the first body (use `.task`).",
        anchor: "the event that first made the app active, or the `kill` or next `launch` that ended the run",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension SlowLaunch {
    /// Its threshold.
    package static let thresholds = [RuleThreshold.slowLaunch]

    /// The rule with the catalogue's threshold.
    package init() { self.init(limit: RuleThreshold.slowLaunch.defaultValue) }

    /// The rule with the threshold `configuration` gives it.
    package init(configuration: RuleConfiguration) { self.init(limit: configuration[threshold: .slowLaunch]) }
}

extension RuleThreshold {
    /// The launch watchdog limit of `slow-launch` (`slow-launch-ms`): how long a launch with UI may take to become active, in milliseconds of `t`; 20,000 unless set.
    public static let slowLaunch = RuleThreshold(id: "slow-launch-ms", rule: .slowLaunch, defaultValue: 20_000)
}

extension Rule {
    /// `slow-launch`: The app took over the watchdog limit to become active.
    public static let slowLaunch = Rule(catalogue: "slow-launch")
}
