import LifecycleLogRules

extension FindingSummary {
    /// The summary as text (`replay summary`'s default format): a line of totals, then a block
    /// per group in report order (``sortedGroups``), then a line per trace that could not be
    /// read. Text from the traces is escaped (`VisibleText`); numbers have no separators. The
    /// same summary always gives the same bytes.
    ///
    /// ```
    /// error [lost-update] 9c1e0f3a5b7d2468: 37 traces, 52 runs, 61 findings
    ///   subject: keys shared:notes
    ///   builds: 1.9, 1.10, 2.0 (first seen 1.9, last seen 2.0)
    ///   …
    ///   example: traces/a.lmdb seq 812: Window w2 wrote "notes" …
    /// ```
    package func text() -> String {
        var out = totalsLine()
        for group in sortedGroups {
            out += "\n\(group.severity.rawValue) [\(group.rule.rawValue)] \(group.fingerprint): "
                + "\(plural(group.traces, "trace")), \(plural(group.runs, "run")), \(plural(group.findings, "finding"))\n"
            out += "  subject: \(Self.subjectText(group.subject))\n"
            var builds = Self.listText(group.sortedBuilds)
            if let first = group.firstSeenBuild, let last = group.lastSeenBuild {
                builds += " (first seen \(VisibleText.escape(first)), last seen \(VisibleText.escape(last)))"
            }
            out += "  builds: \(builds)\n"
            out += "  os: \(Self.listText(group.sortedOSVersions))\n"
            out += "  platforms: \(Self.listText(group.sortedPlatforms))\n"
            out += "  processes: \(Self.listText(group.sortedProcesses.map { $0.isEmpty ? "main app" : $0 }))\n"
            let example = group.example
            out += "  example: \(VisibleText.escape(example.trace)) seq \(example.seq): \(VisibleText.escape(example.message))\n"
        }
        let unreadable = sortedUnreadable
        if !unreadable.isEmpty { out += "\n" }
        for trace in unreadable {
            out += "unreadable: \(VisibleText.escape(trace.reason))\n"
        }
        return out
    }

    /// The first line: what was replayed and found.
    func totalsLine() -> String {
        let given = traces + unreadable.count
        var line = "summary of \(plural(given, "trace"))"
        if !unreadable.isEmpty { line += " (\(traces) replayed, \(unreadable.count) unreadable)" }
        if emptyTraces > 0 { line += " (\(emptyTraces) with no events)" }
        line += ": \(plural(events, "event")), \(plural(runs, "run")); \(plural(findings, "finding")) in \(plural(groups.count, "group"))"
        if !groups.isEmpty {
            line += " (\(groupCount(.error)) error, \(groupCount(.warning)) warning)"
        }
        return line + "\n"
    }

    /// `values` escaped, the first ``listedValues`` of them, then how many more.
    static func listText(_ values: [String]) -> String {
        guard !values.isEmpty else { return "none recorded" }
        let shown = values.prefix(listedValues).map(VisibleText.escape).joined(separator: ", ")
        return values.count > listedValues ? "\(shown) and \(values.count - listedValues) more" : shown
    }

    /// A subject as `scenes a, b; keys scene:draft; details process:x`.
    static func subjectText(_ subject: FindingSubject?) -> String {
        guard let subject else { return "an app's own rule (grouped by its message, seqs left out)" }
        var parts: [String] = []
        if !subject.scenes.isEmpty { parts.append("scenes " + subject.scenes.map(VisibleText.escape).joined(separator: ", ")) }
        if !subject.keys.isEmpty { parts.append("keys " + subject.keys.map(VisibleText.escape).joined(separator: ", ")) }
        if !subject.details.isEmpty { parts.append("details " + subject.details.map(VisibleText.escape).joined(separator: ", ")) }
        return parts.isEmpty ? "the app as a whole" : parts.joined(separator: "; ")
    }
}
