/// `lost-update`: a write to an `app` or `shared` key based on a version older than another
/// writer's latest change, which it overwrites unseen.
package struct LostUpdate: BuiltInRule {
    /// The transitions it hears (the generated routing tells it these, and no others).
    package static let hears: [TransitionKind] = [.keyWritten]
    /// Its examples (in traces/): one that fires, one (`-negative`) that stays quiet.
    package static let exampleFixtures = ["rules/lost-update-across-runs", "rules/lost-update-negative"]

    /// The rule as it starts a trace.
    package init() {}

    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        // `group` keys are compared across processes by the reducer (GroupKeys), not here.
        guard case .keyWritten(let write) = transition, write.sharedIndex >= 0, write.base < write.current,
              let other = write.other, other.version > write.base,
              model.sharedKeys[write.sharedIndex].ref.scope != .group else { return }
        report(write, other: other, now, model, &findings)
    }

    @inline(never)
    private func report(_ write: KeyWrite, other: (version: UInt64, seq: UInt64), _ now: EventTime, _ model: borrowing ModelView,
                        _ findings: inout FindingQueue) {
        let key = model.sharedKeys[write.sharedIndex].ref
        let who = write.window.map { "Window \(model.names[model.openWindows[$0].id])" } ?? "The app"
        var related = [other.seq]
        if !write.baseGiven { related.append(write.seenSeq) }
        findings.report(.lostUpdate, at: now.seq, related: related, subject: model.subject(keys: [key], windows: write.window.map { [$0] } ?? []),
                        "\(who) wrote \(model.display(key)) from version \(write.base)\(write.baseGiven ? "" : " (the last it saw, at seq \(write.seenSeq))"), but it was already at version \(write.current) after another writer's change at seq \(other.seq): that change is overwritten unseen. Re-read the shared model before writing (merge instead of replacing), or give each window its own copy and merge on save.")
    }
}

extension LostUpdate {
    /// A write to a `group` key that overwrites another writer's change unseen, across
    /// processes (trace format 2, rules Readings 19): the message names both processes.
    /// Hears a `group` write that overwrote another process's change unseen (``GroupWriteLoss``).
    mutating func observe(_ loss: GroupWriteLoss, at seq: UInt64, _ findings: inout FindingQueue) {
        Self.reportGroupWrite(key: loss.key, writer: loss.writer, process: loss.process, base: loss.base, baseGiven: loss.baseGiven,
                              seenSeq: loss.seenSeq, current: loss.current, otherProcess: loss.otherProcess, otherSeq: loss.otherSeq,
                              at: seq, &findings)
    }

    private static func reportGroupWrite(key: String, writer: String, process: String, base: UInt64, baseGiven: Bool, seenSeq: UInt64,
                                         current: UInt64, otherProcess: String, otherSeq: UInt64, at seq: UInt64, _ findings: inout FindingQueue) {
        var related = [otherSeq]
        if !baseGiven { related.append(seenSeq) }
        let saw = baseGiven ? "" : " (the last it saw, at seq \(seenSeq))"
        findings.report(.lostUpdate, at: seq, related: related, subject: FindingSubject(keys: ["group:\(key)"], details: ["writer:\(process)", "other:\(otherProcess)"]),
                        "\(writer) of \(process) wrote \"\(key)\" (group) from version \(base)\(saw), but it was already at version \(current) after a change by \(otherProcess) at seq \(otherSeq): that change is overwritten unseen. Re-read the App Group value just before writing (another process may have changed it since), and merge instead of replacing it.")
    }
}

extension LostUpdate: DescribedRule {
    /// `lost-update` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with the events of its `exampleFixtures` as examples.
    package static let description = RuleDescription(
        rule: .lostUpdate, defaultSeverity: .error,
        summary: "A write overwrote another writer's change it never saw.",
        fix: "Re-read the shared model before writing (merge), or give each window its own copy.",
        anchor: "the `write`",
        fires: examplesThatFire, quiet: examplesThatStayQuiet)
}

extension Rule {
    /// `lost-update`: A write overwrote another writer's change it never saw.
    public static let lostUpdate = Rule(catalogue: "lost-update")
}
