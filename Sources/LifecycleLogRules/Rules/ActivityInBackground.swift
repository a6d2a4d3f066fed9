/// `activity-in-background`: windows, or the app, went to the background with activities still running.
package struct ActivityInBackground: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
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

extension ActivityInBackground: DescribedRule {
    /// `activity-in-background` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with examples from `traces/rules/activity-in-background.jsonl` and `traces/rules/activity-in-background-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .activityInBackground, defaultSeverity: .warning,
        summary: "Work (timer, animation, audio) kept running in the background.",
        fix: "Stop timers, animations and sessions when the phase leaves `.active`.",
        anchor: "the event that sent the activity to the background",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"activity","t":30,"window":"w1","name":"autosave-timer","state":"start"}
            {"event":"activity","t":31,"name":"audio","state":"start"}
            {"event":"activity","t":32,"window":"w1","name":"spinner","state":"start"}
            {"event":"activity","t":33,"window":"w1","name":"spinner","state":"stop"}
            {"event":"phase","t":40,"window":"w1","phase":"inactive"}
            {"event":"phase","t":50,"window":"w1","phase":"background"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}
            {"event":"open","t":10,"window":"w1","scene":"main"}
            {"event":"phase","t":20,"window":"w1","phase":"active"}
            {"event":"activity","t":30,"window":"w1","name":"timer","state":"start"}
            {"event":"activity","t":31,"name":"audio","state":"start"}
            {"event":"phase","t":40,"window":"w1","phase":"inactive"}
            {"event":"activity","t":41,"window":"w1","name":"timer","state":"stop"}
            {"event":"activity","t":42,"name":"audio","state":"stop"}
            {"event":"phase","t":50,"window":"w1","phase":"background"}
            {"event":"phase","t":60,"window":"w1","phase":"inactive"}
            {"event":"phase","t":70,"window":"w1","phase":"active"}
            {"event":"activity","t":71,"window":"w1","name":"timer","state":"start"}
            """#,
        ])
}
