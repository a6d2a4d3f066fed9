/// `unclean-exit`: a run ended in the foreground with no terminate and no update to explain it.
struct UncleanExit: BuiltInRule {
    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        guard case .runEnded(let end) = transition, let next = end.nextLaunch, end.isUnclean else { return }
        let run = model.run
        findings.report(.uncleanExit, at: next.seq, related: [run.launchSeq, run.lastSeq],
                        "Run \(run.number) (launched at seq \(run.launchSeq)) ended while \(end.appPhase.rawValue), with no terminate: a crash, watchdog or out-of-memory kill in the foreground is likely. Check crash logs for that time; save state before work that may fail.")
    }
}
