import Dispatch
import LifecycleLogRules

/// Every finding of many traces grouped by fingerprint (`replay summary`): for each group, its
/// rule, severity and subject, how many traces and runs it appears in, the builds, OS versions,
/// platforms and processes of those runs, the first and last build it was seen in, and one
/// example.
///
/// A group is the findings whose identity is the same: the hash of `lifecycleFindingHash/v2`
/// (`FindingFingerprints`), without the `:N` occurrence SARIF adds within one trace, so the
/// second and third repeat of a bug in a trace join the first, and the same bug in a thousand
/// sessions is one group. ``Group/fingerprint`` is that hash, 16 hexadecimal digits; SARIF's
/// `partialFingerprints` value for a finding of the group is it followed by `:N`. A filter by a
/// set of fingerprints (a baseline) can be applied to ``groups`` as they are.
///
/// Memory holds per-group aggregates only, never the findings: counts, the example, and the
/// distinct builds, OS versions, platforms and processes of each group (bounded by the number of
/// distinct values in the traces; the writers list at most ``listedValues`` of each).
/// Everything is added in an order-free way (sums, unions, the least example), so traces replayed
/// in parallel and added as they finish give the same summary as one after the other.
package struct FindingSummary: Sendable {
    /// How many values of each list (builds, OS versions, platforms, processes) the writers show;
    /// past that they say how many more there are.
    package static let listedValues = 20

    /// The findings of one fingerprint, across the traces.
    package struct Group: Sendable {
        /// The identity's hash (`FindingFingerprints/hash(_:)`).
        package var hash: UInt64
        /// The rule that found them.
        package var rule: Rule
        /// Their severity (the highest, should a custom rule report one identity at both).
        package var severity: Severity
        /// What they are about: scenes, keys (`scope:name`), other words; `nil` for an app's own
        /// rule (whose identity is its message with seqs left out).
        package var subject: FindingSubject?
        /// How many findings.
        package var findings = 0
        /// How many traces have at least one.
        package var traces = 0
        /// How many runs (launch to launch, in every trace) have at least one.
        package var runs = 0
        /// The `build`s of the launches of those runs (launches without one add none).
        package var builds: Set<String> = []
        /// The `os` versions of those launches.
        package var osVersions: Set<String> = []
        /// The `platform`s of those launches.
        package var platforms: Set<String> = []
        /// The processes of the events the findings are anchored at (`""`: the main app).
        package var processes: Set<String> = []
        /// The first finding in path order, then seq.
        package var example: Example

        /// The fingerprint: the hash as 16 lowercase hexadecimal digits.
        package var fingerprint: String { FindingSummary.hex(hash) }

        /// The builds in ``BuildOrder``.
        package var sortedBuilds: [String] { builds.sorted(by: BuildOrder.precedes) }
        /// The OS versions in ``BuildOrder``.
        package var sortedOSVersions: [String] { osVersions.sorted(by: BuildOrder.precedes) }
        /// The platforms by their UTF-8 bytes.
        package var sortedPlatforms: [String] { platforms.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        /// The processes by their UTF-8 bytes (the main app, `""`, first).
        package var sortedProcesses: [String] { processes.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        /// The first build (in ``BuildOrder``) it appears in, if any of its runs names a build.
        package var firstSeenBuild: String? { builds.min(by: BuildOrder.precedes) }
        /// The last build it appears in.
        package var lastSeenBuild: String? { builds.max(by: BuildOrder.precedes) }
    }

    /// A finding that stands for its group: the first in path order, then seq.
    package struct Example: Sendable {
        /// The trace's place among the traces given (its path order).
        package var order: Int
        /// The trace's path, as given or found in a folder.
        package var trace: String
        /// Its name: its path inside the folder given, or its file name.
        package var name: String
        /// The finding's seq.
        package var seq: UInt64
        /// The finding's message.
        package var message: String
    }

    /// A trace that could not be replayed.
    package struct Unreadable: Sendable {
        /// The trace's place among the traces given.
        package var order: Int
        /// Its path.
        package var trace: String
        /// Why (the error's description, which names the path).
        package var reason: String
    }

    /// The groups by hash; ``sortedGroups`` is the report order.
    package private(set) var groups: [UInt64: Group] = [:]
    /// The traces that could not be replayed, in path order once ``sortedUnreadable`` sorts them.
    package private(set) var unreadable: [Unreadable] = []
    /// How many traces were replayed.
    package private(set) var traces = 0
    /// How many of them have no events.
    package private(set) var emptyTraces = 0
    /// Their events.
    package private(set) var events: UInt64 = 0
    /// Their runs (launches).
    package private(set) var runs = 0
    /// Their findings.
    package private(set) var findings = 0

    /// An empty summary.
    package init() {}

    /// The groups in report order: most traces first, then errors before warnings, then by rule
    /// id, then by fingerprint.
    package var sortedGroups: [Group] {
        groups.values.sorted { a, b in
            if a.traces != b.traces { return a.traces > b.traces }
            if a.severity != b.severity { return a.severity > b.severity }
            if a.rule != b.rule { return a.rule < b.rule }
            return a.hash < b.hash
        }
    }

    /// Takes out the groups `baseline` holds (`replay summary --baseline`), and their findings from
    /// the count: what is left is the new groups. Returns how many groups and findings it took out.
    package mutating func setAside(_ baseline: FindingBaseline) -> (groups: Int, findings: Int) {
        let accepted = groups.filter { baseline.contains(fingerprint: $0.value.fingerprint) }
        for (hash, group) in accepted {
            groups[hash] = nil
            findings -= group.findings
        }
        return (accepted.count, accepted.values.reduce(0) { $0 + $1.findings })
    }

    /// The unreadable traces in path order.
    package var sortedUnreadable: [Unreadable] { unreadable.sorted { $0.order < $1.order } }

    /// How many groups have `severity`.
    package func groupCount(_ severity: Severity) -> Int { groups.values.count { $0.severity == severity } }

    /// Adds the tally of the trace at `path` (named `name`), the `order`th trace given.
    mutating func add(_ tally: TraceFindingTally, order: Int, path: String, name: String) {
        traces += 1
        events += tally.events
        runs += tally.runs
        if tally.events == 0 { emptyTraces += 1 }
        for (hash, found) in tally.groups {
            findings += found.findings
            let example = Example(order: order, trace: path, name: name, seq: found.firstSeq, message: found.firstMessage)
            var group = groups[hash] ?? Group(hash: hash, rule: found.rule, severity: found.severity, subject: found.subject, example: example)
            group.findings += found.findings
            group.traces += 1
            group.runs += found.runs.count { $0 >= 0 }
            if found.severity > group.severity { group.severity = found.severity }
            for run in found.runs where run >= 0 {
                let launch = tally.launches[Int(run)]
                if let build = launch.build { group.builds.insert(build) }
                if let os = launch.os { group.osVersions.insert(os) }
                group.platforms.insert(launch.platform)
            }
            for process in found.processes { group.processes.insert(tally.processes[Int(process)]) }
            if (order, found.firstSeq) < (group.example.order, group.example.seq) { group.example = example }
            groups[hash] = group
        }
    }

    /// Records that the `order`th trace, at `path`, could not be replayed.
    mutating func add(unreadable error: LifecycleLogError, order: Int, path: String) {
        unreadable.append(Unreadable(order: order, trace: path, reason: error.description))
    }

    /// Replays every trace of `traces` (each a path and its name), in parallel on every core as
    /// `replay FOLDER` does (`DispatchQueue.concurrentPerform`, each trace file itself on two
    /// threads), and summarises their findings. A trace that cannot be replayed is recorded in
    /// ``unreadable``; the others are summarised all the same.
    ///
    /// - Parameters:
    ///   - configuration: the rules and severities (`--rules`, `--explore`), as for `replay TRACE`.
    ///   - customRules: an app's own rules.
    ///   - progress: called with the number of traces done, after each.
    package static func gather(_ traces: [(path: String, name: String)], configuration: RuleConfiguration,
                               customRules: [any LifecycleRule], progress: (@Sendable (Int) -> Void)? = nil) -> FindingSummary {
        let summary = Locked(FindingSummary())
        let done = Locked(0)
        DispatchQueue.concurrentPerform(iterations: traces.count) { i in
            let (path, name) = traces[i]
            do {
                let tally = try TraceFindingTally.gather(path, configuration: configuration, customRules: customRules)
                summary.withLock { $0.add(tally, order: i, path: path, name: name) }
            } catch {
                let failure = error as? LifecycleLogError ?? LifecycleLogError(.io, "\(error)", path: path)
                summary.withLock { $0.add(unreadable: failure, order: i, path: path) }
            }
            let count = done.withLock { count -> Int in
                count += 1
                return count
            }
            progress?(count)
        }
        return summary.withLock { $0 }
    }

    /// `hash` as 16 lowercase hexadecimal digits.
    static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
