/// `unclean-exit`: a run ended by a recorded crash or watchdog kill (whatever the phase), by a
/// jetsam kill while active, or with no known cause (the next launch, not an update and not under
/// a debugger; or a kill of an unknown reason) while active. Clean ends (`terminate`,
/// `willTerminate`) and kills by the user, a harness or a debugger never fire (rules.md, v2).
package struct UncleanExit: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runEnded]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unclean-exit", "rules/unclean-exit-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition, !end.isClean, Self.fires(end, debugger: model.run.debugger) else { return }
        report(end, model, &findings)
    }

    /// Whether a run's end is an unclean exit.
    static func fires(_ end: RunEnd, debugger: Bool) -> Bool {
        switch end.how {
        case .terminated, .willTerminate:
            return false
        case .killed(let kill):
            switch kill.reason {
            case .crash, .watchdog: return true
            case .jetsam: return end.appPhase == .active
            case .unknown: return end.appPhase == .active && !debugger
            case .user, .harness, .debugger: return false
            }
        case .unrecorded(let next):
            return end.appPhase == .active && !debugger && !next.updated
        }
    }

    @inline(never)
    private func report(_ end: RunEnd, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        let run = model.run
        let names = model.names
        let macOS = run.platform == .macOS
        let phase = end.appPhase == .background ? "in the background" : end.appPhase.rawValue
        let start = "Run \(run.number) (launched at seq \(run.launchSeq))"
        let message: String
        if let kill = end.kill {
            var details: [String] = []
            if let signal = kill.signal { details.append("signal \(signal)") }
            if kill.by != ReplayEvent.noName { details.append("recorded by \"\(names[kill.by])\"") }
            let reason = "\"\(names[kill.name])\"" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
            let what: String
            switch kill.reason {
            case .crash: what = "the app crashed"
            case .watchdog: what = "the system's watchdog ended it (launch, resume or suspend took too long)"
            case .jetsam: what = "the system ended it for memory while it was in the foreground"
            default: what = macOS ? "an unknown cause ended it while active: it may have crashed or been force quit"
                : "an unknown cause ended it while active: a crash, or a kill by the system in the foreground, is likely"
            }
            message = "\(start) was killed with reason \(reason) while \(phase): \(what). Look in the crash logs for that time; save state before work that may fail."
        } else {
            let what = macOS
                ? "the app crashed or was force quit"
                : "it crashed, or the system killed it (watchdog or memory) while in the foreground"
            message = "\(start) ended while \(phase), with no terminate and no kill recorded: \(what). Look in the crash logs for that time; save state before work that may fail."
        }
        let how = end.kill.map { "kill:\(names[$0.name])" } ?? "nothing recorded"
        findings.report(.uncleanExit, at: end.seq, related: [run.launchSeq, run.lastSeq],
                        subject: FindingSubject(details: [how]), message)
    }
}

extension UncleanExit: DescribedRule {
    /// `unclean-exit` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .uncleanExit, defaultSeverity: .warning,
        summary: "A run crashed, was killed by the watchdog, or ended active with no recorded cause.",
        fix: "A recorded crash or watchdog kill, or a death while active: check crash logs; save before risky work.",
        anchor: "the `kill`, or the next `launch`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unclean-exit`: A run crashed, was killed by the watchdog, or ended active with no recorded cause.
    public static let uncleanExit = Rule(catalogue: "unclean-exit")
}
