/// `app-phase-mismatch`: an app-level phase event disagrees with the windows that have phases of their own.
struct AppPhaseMismatch: BuiltInRule {
    @inline(__always)
    mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        guard case .phaseChanged(nil, _, let newPhase) = transition else { return }
        check(newPhase, now, &model, &findings)
    }

    @inline(never)
    private func check(_ newPhase: ScenePhase, _ now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        var any = false, active = false, inactive = false
        for i in model.openWindows.indices {
            guard let own = model.openWindows[i].ownPhase else { continue }
            any = true
            if own == .active { active = true } else if own == .inactive { inactive = true }
        }
        guard any else { return }
        let aggregate: ScenePhase = active ? .active : inactive ? .inactive : .background
        guard aggregate != newPhase else { return }
        findings.report(.appPhaseMismatch, at: now.seq, related: [],
                        "The app-level phase became \(newPhase.rawValue), but the windows with phases of their own add up to \(aggregate.rawValue). The App's scenePhase is the aggregate of its scenes; record the App's onChange(of: scenePhase) and each window's from the same source, in the order they happen.")
    }
}
