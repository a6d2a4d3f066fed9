/// `slow-launch`: the app became active for the first time later than the watchdog limit after
/// its launch, or was killed in the foreground before ever becoming active, past that limit.
struct SlowLaunch: BuiltInRule {
    /// The watchdog limit, in milliseconds of `t`.
    let limit: Double

    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        switch transition {
        case .appPhaseChanged(_, _, firstActive: true):
            firstActive(now, &model, &findings)
        case .runEnded(let end):
            killed(end, now, &model, &findings)
        default:
            break
        }
    }

    @inline(never)
    private func firstActive(_ now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        let (launchSeq, launchT, background) = (model.run.launchSeq, model.run.launchT, model.run.isBackgroundLaunch)
        if !background, now.t - launchT > limit {
            findings.report(.slowLaunch, at: now.seq, related: [launchSeq],
                            "The app first became active \(JSONWriter.number(now.t - launchT)) ms after its launch at seq \(launchSeq); the launch watchdog kills apps that take about \(JSONWriter.number(limit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
        }
    }

    @inline(never)
    private func killed(_ end: RunEnd, _ now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        let run = model.run
        guard let next = end.nextLaunch, end.isUnclean, !run.isBackgroundLaunch, !run.everActive, next.t - run.launchT > limit else { return }
        findings.report(.slowLaunch, at: next.seq, related: [run.launchSeq],
                        "Run \(run.number) was killed \(JSONWriter.number(next.t - run.launchT)) ms after its launch at seq \(run.launchSeq) without ever becoming active: the launch watchdog kills apps that take about \(JSONWriter.number(limit / 1000)) s. Move work out of App.init and the first view's body (load data in .task).")
    }
}
