import LifecycleLogRules

/// How the findings replay reported differ from those a test expected: the
/// pure core of the assertions, which report its ``description`` as a test failure.
///
/// The description reads like a TestStore failure: a header naming the trace,
/// then every finding in report order (seq, then rule), unchanged ones as
/// context, expected ones that were not found marked `−`, and found ones that
/// were not expected marked `+`. Each line points at the event by its seq:
///
/// ```
/// session.lmdb: the lifecycle findings differ from those expected (expected −, actual +):
///   seq 8 [lost-update] error: Window w2 wrote "notes" (shared) from version 0 … (related: 6, 7)
/// − seq 10 [unsaved-dismiss]
/// + seq 12 [missed-background-save] error: Unsaved "notes" (shared) went to the background … (related: 8)
/// To see them on a timeline: replay report session.lmdb -o timeline.html
/// ```
public struct FindingsDifference: Sendable, Hashable, CustomStringConvertible {
    /// One line of the difference.
    public enum Line: Sendable, Hashable {
        /// An expected finding that replay reported.
        case matched(Finding)
        /// An expected finding that replay did not report (or reported with another severity or message).
        case missing(ExpectedFinding)
        /// A finding replay reported that was not expected.
        case unexpected(Finding)
        /// A finding replay reported that a non-exhaustive assertion did not name: context, not a failure.
        case ignored(Finding)
    }

    /// The trace's path, as given.
    public var trace: String
    /// Whether the test expected no findings at all.
    public var expectedNone: Bool
    /// Whether findings the test did not name fail it (``Exhaustivity/on``) or are context (``Exhaustivity/off``).
    public var exhaustivity: Exhaustivity = .on
    /// Every line, in report order (seq, then rule); a missing line comes
    /// before an unexpected one at the same seq and rule.
    public var lines: [Line]

    /// Compares `actual` findings of the trace at `trace` with `expected` ones.
    ///
    /// - Parameters:
    ///   - trace: how the failure message names the session (a path, `memory`, `events`).
    ///   - actual: the findings replay reported.
    ///   - expected: the findings the test expected.
    ///   - exhaustivity: with ``Exhaustivity/off``, a finding that was not expected is not a
    ///     difference; it is listed as context when an expected one is missing.
    /// - Returns: `nil` when every expected finding was reported and (exhaustively) nothing
    ///   else was, else the difference.
    public init?(trace: String, actual: [Finding], expected: [ExpectedFinding], exhaustivity: Exhaustivity = .on) {
        let actual = actual.sorted { ($0.seq, $0.rule) < ($1.seq, $1.rule) }
        var lines: [Line] = []
        var used = Array(repeating: false, count: actual.count)
        var failed = false
        for e in expected {
            if let i = actual.indices.first(where: { !used[$0] && e.matches(actual[$0]) }) {
                used[i] = true
                lines.append(.matched(actual[i]))
            } else {
                lines.append(.missing(e))
                failed = true
            }
        }
        for (i, f) in actual.enumerated() where !used[i] {
            if exhaustivity == .on {
                lines.append(.unexpected(f))
                failed = true
            } else {
                lines.append(.ignored(f))
            }
        }
        guard failed else { return nil }
        self.trace = trace
        self.exhaustivity = exhaustivity
        expectedNone = expected.isEmpty
        // Report order; at one (seq, rule): the found one, the expected one, then the unexpected one.
        func order(_ i: Int) -> (UInt64, Rule, Int, Int) {
            switch lines[i] {
            case .matched(let f): return (f.seq, f.rule, 0, i)
            case .missing(let e): return (e.seq, e.rule, 1, i)
            case .unexpected(let f), .ignored(let f): return (f.seq, f.rule, 2, i)
            }
        }
        self.lines = lines.indices.sorted { order($0) < order($1) }.map { lines[$0] }
    }

    /// A finding as a line of the difference: seq, rule, severity, message and related seqs.
    public static func describe(_ finding: Finding) -> String {
        var line = "seq \(finding.seq) [\(finding.rule.rawValue)] \(finding.severity.rawValue): \(finding.message)"
        if !finding.related.isEmpty { line += " (related: \(finding.related.map(String.init).joined(separator: ", ")))" }
        return line
    }

    /// The failure message: a header, one line per finding, and how to look closer.
    public var description: String {
        let unexpected = lines.count { if case .unexpected = $0 { true } else { false } }
        let ignored = lines.count { if case .ignored = $0 { true } else { false } }
        var out = expectedNone
            ? "\(trace): expected no lifecycle findings, but replay found \(unexpected) (actual +):\n"
            : "\(trace): the lifecycle findings differ from those expected (expected −, actual +\(exhaustivity == .off ? "; non-exhaustive: \(ignored) not asserted, marked ·" : "")):\n"
        for line in lines {
            switch line {
            case .matched(let f): out += "  \(Self.describe(f))\n"
            case .missing(let e): out += "− \(e)\n"
            case .unexpected(let f): out += "+ \(Self.describe(f))\n"
            case .ignored(let f): out += "· \(Self.describe(f))\n"
            }
        }
        out += trace == "events" || trace == "memory"
            ? "To see them on a timeline: write the events to a .jsonl file (LifecycleEvent.jsonLine) and run replay report FILE -o timeline.html"
            : "To see them on a timeline: replay report \(trace) -o timeline.html"
        return out
    }
}
