/// `activity-in-background`: windows, or the app, went to the background with activities still running.
package struct ActivityInBackground: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.crossedBackground]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/activity-in-background", "rules/activity-in-background-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .crossedBackground(let crossed, let appEntered) = transition else { return }
        // Most crossings leave nothing running: found by a scan that copies nothing, before the
        // names and the lists below are made.
        guard (appEntered && !model.run.appActivities.isEmpty)
                || crossed.contains(where: { $0.intoBackground && !model.openWindows[model.windowIndex($0.id)!].activities.isEmpty })
        else { return }
        let names = model.names
        var running: [String] = []  // activities left running in the background by this event, as the message names them
        var budget = FindingBudget()  // the message names at most FindingBound.items of them, then how many more
        var runningSince: [UInt64] = []
        var windows: [Int] = []
        var windowActivities: [Name] = []
        for (id, intoBackground) in crossed where intoBackground {
            // `!`: the window crossed at this event, so it is open.
            let index = model.windowIndex(id)!
            // `!` below: the model makes the summary of every window with activities that crosses.
            guard !model.openWindows[index].activities.isEmpty, let summary = model.openWindows[index].activitySummary else { continue }
            let shown = budget.take(summary.first.prefix(summary.count), total: summary.count)
            if !shown.isEmpty { running.append("window \(names[id])'s \(quoted(Array(shown), names))") }
            runningSince += summary.earliest
            windows.append(index)
            windowActivities += summary.first
        }
        var appActivities: [Name] = []
        if appEntered, !model.run.appActivities.isEmpty, let summary = model.run.appActivitySummary {
            let shown = budget.take(summary.first.prefix(summary.count), total: summary.count)
            if !shown.isEmpty { running.append("the app-wide \(quoted(Array(shown), names))") }
            runningSince += summary.earliest
            appActivities = summary.first
        }
        guard !running.isEmpty else { return }
        // The subject keeps the first of its details in byte order (FindingBound): every
        // "activity:" before every "app activity:", so the first of each are enough.
        let details = FindingBound.first(FindingBound.items, of: windowActivities, by: names.precedes).map { "activity:\(names[$0])" }
            + FindingBound.first(FindingBound.items, of: appActivities, by: names.precedes).map { "app activity:\(names[$0])" }
        findings.report(.activityInBackground, at: now.seq, related: runningSince, subject: model.subject(windows: windows, details: details),
                        "Went to the background with \(running.joined(separator: " and "))\(budget.moreText) still running. Stop timers, animations and sessions when the scene phase leaves .active (onChange(of: scenePhase)) and restart them when it returns, or declare the background mode they need.")
    }

    /// Activity names quoted and joined with commas.
    private func quoted(_ activities: [Name], _ names: NameTable) -> String {
        activities.map { "\"\(names[$0])\"" }.joined(separator: ", ")
    }
}

extension ActivityInBackground: DescribedRule {
    /// `activity-in-background` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .activityInBackground, defaultSeverity: .warning,
        summary: "Work (timer, animation, audio) kept running in the background.",
        fix: "Stop timers, animations and sessions when the phase leaves `.active`.",
        anchor: "the event that sent the activity to the background",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `activity-in-background`: Work (timer, animation, audio) kept running in the background.
    public static let activityInBackground = Rule(catalogue: "activity-in-background")
}
