/// `unfinished-save` (rules version 2): a save `begin` still open, not paired with its `end`, at an
/// `activity` `expire` of its process or at its run's end event. Each begin is reported once: at
/// the first expire while it is open, or else at the run's end (rules.md, Readings 17).
package struct UnfinishedSave: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.runEnded, .expired]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/unfinished-save-at-quit", "rules/unfinished-save-negative"]

    /// The rule as it starts a trace.
    package init() {}

    /// The begins of the current run already reported at an expire (they stay open, and are not
    /// reported again at the run's end).
    var reported: [UInt64] = []

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        switch transition {
        case .expired:
            report(at: now.seq, atEnd: false, model, &findings)
        case .runEnded(let end):
            if !model.run.openSaves.isEmpty { report(at: end.seq, atEnd: true, model, &findings) }
            reported.removeAll()
        default:
            break
        }
    }

    @inline(never)
    private mutating func report(at seq: UInt64, atEnd: Bool, _ model: borrowing ModelView, _ findings: inout FindingQueue) {
        let begins = model.run.openSaves.map(\.seq).filter { !reported.contains($0) }
        guard !begins.isEmpty else { return }
        reported.append(contentsOf: begins)
        let list = FindingBound.list(begins) { "seq \($0)" }
        let saves = begins.count == 1 ? "The save begun at \(list) had" : "The saves begun at \(list) had"
        let when = atEnd
            ? "not ended when the run ended: it never saved anything, so the store may hold nothing new or a partly written file"
            : "not ended when the system's background-task expiration handler ran: the process is about to be suspended mid-save"
        findings.report(.unfinishedSave, at: seq, related: begins, subject: FindingSubject(details: [atEnd ? "at the run's end" : "at an expire"]),
                        "\(saves) \(when). Finish saving before the app goes to the background, or end the background task only from the save's completion, not right after starting it.")
    }
}

extension UnfinishedSave: DescribedRule {
    /// `unfinished-save` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .unfinishedSave, defaultSeverity: .error,
        summary: "An asynchronous save began and never ended before the process could be suspended or ended.",
        fix: "Finish an async save before going to the background; end the background task from the save's completion.",
        anchor: "the `activity` `expire`, or the run's end event",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `unfinished-save`: An asynchronous save began and never ended before the process could be suspended or ended.
    public static let unfinishedSave = Rule(catalogue: "unfinished-save")
}
