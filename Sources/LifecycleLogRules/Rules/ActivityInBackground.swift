/// `activity-in-background`: windows, or the app, went to the background with activities still running.
package struct ActivityInBackground: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: LifecycleModel, _ findings: inout FindingQueue) {
        guard case .crossedBackground(let crossed, let appEntered) = transition else { return }
        var running: [String] = []  // activities left running in the background by this event
        var runningSince: [UInt64] = []
        var windows: [Int] = []
        var names: [String] = []
        for (id, intoBackground) in crossed where intoBackground {
            // `!`: the window crossed at this event, so it is open.
            let index = model.windowIndex(id)!
            if !model.openWindows[index].activities.isEmpty {
                running.append("window \(model.names[id])'s \(model.quotedList(model.openWindows[index].activities.keys))")
                runningSince += model.openWindows[index].activities.values
                windows.append(index)
                names += model.openWindows[index].activities.keys.map { "activity:\(model.names[$0])" }
            }
        }
        if appEntered, !model.run.appActivities.isEmpty {
            let activities = model.run.appActivities
            running.append("the app-wide \(model.quotedList(activities.keys))")
            runningSince += activities.values
            names += activities.keys.map { "app activity:\(model.names[$0])" }
        }
        guard !running.isEmpty else { return }
        findings.report(.activityInBackground, at: now.seq, related: runningSince, subject: model.subject(windows: windows, details: names),
                        "Went to the background with \(running.joined(separator: " and ")) still running. Stop timers, animations and sessions when the scene phase leaves .active (onChange(of: scenePhase)) and restart them when it returns, or declare the background mode they need.")
    }
}
