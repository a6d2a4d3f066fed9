import LifecycleLogRecorder
import LifecycleLogRules

/// The findings a team has accepted for now, by identity (spec/baseline.md, issue 32): with
/// `replay --baseline FILE`, a finding whose identity is in the file is `unchanged` and does not
/// fail `--assert`; one that is not is `new`; an entry no finding of the run has is `absent`.
///
/// A finding's identity is its rule and subject (`FindingFingerprints`' hash, 16 hex digits,
/// without SARIF's `:N` occurrence): the same bug in another trace, on another device, or once more
/// in the same trace is the same entry, as a crash reporter groups a crash. An entry also keeps,
/// for people, the rule, severity, subject, message and one example (the first trace by report
/// order, then seq), none of which the comparison reads.
package struct FindingBaseline: Sendable, Equatable {
    /// The file's `format`.
    package static let format = "lifecycle-baseline"
    /// The file's `version`: the only one there is.
    package static let version = 1

    /// One accepted finding.
    package struct Entry: Sendable, Equatable {
        /// The identity: 16 lower-case hex digits.
        package var fingerprint: String
        package var rule: String
        package var severity: String
        package var subject: String
        package var trace: String
        package var seq: UInt64
        package var message: String
    }

    /// The entries, sorted by fingerprint, each fingerprint once.
    package private(set) var entries: [Entry]
    private var fingerprints: Set<String>

    /// The baseline of every finding of `reports` (the first of each identity in report order).
    package init(reports: [ReplayReport]) {
        var byFingerprint: [String: Entry] = [:]
        for report in reports {
            for finding in report.findings {
                let fingerprint = Self.fingerprint(finding)
                guard byFingerprint[fingerprint] == nil else { continue }
                byFingerprint[fingerprint] = Entry(fingerprint: fingerprint, rule: finding.rule.rawValue, severity: finding.severity.rawValue,
                                                   subject: FindingSummary.subjectText(finding.subject), trace: report.trace,
                                                   seq: finding.seq, message: finding.message)
            }
        }
        self.init(entries: Array(byFingerprint.values))
    }

    private init(entries: [Entry]) {
        self.entries = entries.sorted { $0.fingerprint < $1.fingerprint }
        fingerprints = Set(entries.map(\.fingerprint))
    }

    /// A finding's identity in a baseline: its fingerprint hash in 16 hex digits.
    package static func fingerprint(_ finding: Finding) -> String {
        let hex = String(FindingFingerprints.hash(finding), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The baseline of every group of a summary (`replay summary --write-baseline`), each with its example.
    package init(groups: [FindingSummary.Group]) {
        self.init(entries: groups.map { g in
            Entry(fingerprint: g.fingerprint, rule: g.rule.rawValue, severity: g.severity.rawValue, subject: FindingSummary.subjectText(g.subject),
                  trace: g.example.name, seq: g.example.seq, message: g.example.message)
        })
    }

    /// Whether `finding` is in the baseline (`unchanged`), not `new`.
    package func contains(_ finding: Finding) -> Bool { fingerprints.contains(Self.fingerprint(finding)) }

    /// Whether the identity `fingerprint` (16 hex digits) is in the baseline.
    package func contains(fingerprint: String) -> Bool { fingerprints.contains(fingerprint) }

    /// The entries none of `seen` (fingerprints) has: fixed since, or not reached in this run.
    package func absent(seen: Set<String>) -> [Entry] { entries.filter { !seen.contains($0.fingerprint) } }

    /// The file: a header line, then one entry a line (so that a change is a diff of lines), sorted
    /// by fingerprint; the same findings give the same bytes.
    package func json() -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"format\":\"\(Self.format)\",\"version\":\(Self.version),\"findings\":[")
        for (i, e) in entries.enumerated() {
            raw(i == 0 ? "\n" : ",\n")
            JSONWriter.writeObject([
                JSONMember("fingerprint", .string(e.fingerprint)), JSONMember("rule", .string(e.rule)),
                JSONMember("severity", .string(e.severity)), JSONMember("subject", .string(e.subject)),
                JSONMember("trace", .string(e.trace)), JSONMember("seq", .number(String(e.seq))),
                JSONMember("message", .string(e.message)),
            ], into: &out)
        }
        raw(entries.isEmpty ? "]}\n" : "\n]}\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads a baseline file.
    ///
    /// - Throws: `LifecycleLogError` `invalidInput` naming the file and what is wrong (not JSON,
    ///   another format or version, an entry without a valid `fingerprint`), and what to do.
    package static func load(_ path: String, text: String) throws -> FindingBaseline {
        func bad(_ what: String) -> LifecycleLogError {
            LifecycleLogError(.invalidInput, "is not a baseline replay can read: \(what); write one with replay TRACES --write-baseline FILE", path: path)
        }
        var bytes = Array(text.utf8)
        let parsed: JSONValue
        do {
            parsed = try bytes.withUnsafeMutableBufferPointer { try JSONParser.parse(UnsafeBufferPointer($0)) }
        } catch {
            throw bad("not valid JSON (\(error))")
        }
        guard case .object(let top) = parsed else { throw bad("not a JSON object") }
        func member(_ members: [JSONMember], _ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
        guard member(top, "format") == .string(format) else { throw bad("\"format\" must be \"\(format)\"") }
        guard case .number(let v)? = member(top, "version"), v == String(version) else {
            throw bad("\"version\" must be \(version) (a newer replay may have written it)")
        }
        guard case .array(let items)? = member(top, "findings") else { throw bad("\"findings\" must be a list") }
        var entries: [Entry] = []
        for (i, item) in items.enumerated() {
            guard case .object(let m) = item else { throw bad("findings[\(i)] must be an object") }
            guard case .string(let fingerprint)? = member(m, "fingerprint"), fingerprint.utf8.count == 16,
                  fingerprint.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw bad("findings[\(i)].fingerprint must be 16 lower-case hex digits")
            }
            func text(_ name: String) -> String { if case .string(let s)? = member(m, name) { s } else { "" } }
            var seq: UInt64 = 0
            if case .number(let n)? = member(m, "seq"), let s = UInt64(n) { seq = s }
            entries.append(Entry(fingerprint: fingerprint, rule: text("rule"), severity: text("severity"), subject: text("subject"),
                                 trace: text("trace"), seq: seq, message: text("message")))
        }
        guard Set(entries.map(\.fingerprint)).count == entries.count else { throw bad("a fingerprint is listed twice") }
        return FindingBaseline(entries: entries)
    }
}
