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
///
/// A command that knows which identities its run saw (`replay`, `replay summary`) asks
/// ``compare(seen:)`` for the three lists, or ``state(of:)`` for one identity.
package struct FindingBaseline: Sendable, Equatable {
    /// The file's `format`.
    package static let format = "lifecycle-baseline"
    /// The file's `version`: the only one there is.
    package static let version = 1

    /// One accepted finding.
    package struct Entry: Sendable, Equatable {
        /// The identity: 16 lower-case hex digits (``FindingBaseline/fingerprint(_:)``). The only
        /// member a comparison reads.
        package var fingerprint: String
        /// The rule's id, such as `unsaved-dismiss`, as the finding had it (for people).
        package var rule: String
        /// `error` or `warning`, as the finding had it (for people).
        package var severity: String
        /// The subject in words, such as `scenes main; keys scene:draft` (for people).
        package var subject: String
        /// The trace of the example, as the report named it (for people).
        package var trace: String
        /// The seq of the example in ``trace`` (for people).
        package var seq: UInt64
        /// The example's message (for people).
        package var message: String
    }

    /// Where an identity stands against a baseline. The raw values are SARIF 2.1.0's
    /// `baselineState` values (§3.27.24); SARIF's fourth, `updated`, is never given, since an
    /// identity has nothing that could change.
    package enum State: String, Sendable, CaseIterable {
        /// Seen in this run, not in the baseline: reported, and judged by `--assert`.
        case new
        /// Seen in this run and in the baseline: not reported as a failure.
        case unchanged
        /// In the baseline, not seen in this run: fixed since, or not reached by these traces.
        case absent
    }

    /// How the identities a run saw compare with a baseline (``compare(seen:)``).
    package struct Comparison: Sendable, Equatable {
        /// The identities seen that the baseline does not hold, sorted, each once.
        package var new: [String]
        /// The identities seen that the baseline holds, sorted, each once.
        package var unchanged: [String]
        /// The baseline's entries that no identity seen has, sorted by fingerprint.
        package var absent: [Entry]
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

    /// The state of an identity a run saw: ``State/unchanged`` when the baseline holds it,
    /// ``State/new`` when it does not. (``State/absent`` is for entries, from ``compare(seen:)``.)
    package func state(of fingerprint: String) -> State { fingerprints.contains(fingerprint) ? .unchanged : .new }

    /// The entries none of `seen` (fingerprints) has: fixed since, or not reached in this run.
    package func absent(seen: Set<String>) -> [Entry] { entries.filter { !seen.contains($0.fingerprint) } }

    /// Sorts the identities a run saw (in any order, repeats allowed; from one trace or many)
    /// into new and unchanged, and finds the entries none of them has (absent).
    package func compare(seen: some Sequence<String>) -> Comparison {
        let seen = Set(seen)
        var comparison = Comparison(new: [], unchanged: [], absent: absent(seen: seen))
        for fingerprint in seen.sorted() {
            if fingerprints.contains(fingerprint) { comparison.unchanged.append(fingerprint) } else { comparison.new.append(fingerprint) }
        }
        return comparison
    }

    /// The lines a text report ends with under `--baseline`: how many findings the baseline hid
    /// (`hidden`, such as `"3 findings"` or `"2 groups (5 findings)"`), then the absent entries, at
    /// most `limit` of them, each with its rule, subject and example. Text from the file is made
    /// visible (``VisibleText``).
    package static func textNote(path: String, hidden: String, absent: [Entry], limit: Int = 20) -> String {
        var text = "\(hidden) in the baseline (\(VisibleText.escape(path))) not shown\n"
        guard !absent.isEmpty else { return text }
        text += "\(plural(absent.count, "baseline entry", "baseline entries")) not found in this run (fixed, or not reached by these traces):\n"
        for entry in absent.prefix(limit) {
            text += "  \(VisibleText.escape(entry.fingerprint)) [\(VisibleText.escape(entry.rule))] \(VisibleText.escape(entry.subject))"
                + " (was at seq \(entry.seq) of \(VisibleText.escape(entry.trace)))\n"
        }
        if absent.count > limit { text += "  and \(absent.count - limit) more (replay TRACES --baseline FILE --format sarif lists every one)\n" }
        return text
    }

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
    /// - Parameters:
    ///   - path: the file's name, for the errors.
    ///   - text: its content.
    /// - Throws: `LifecycleLogError` `invalidInput` naming the file, the line (and column, for a
    ///   syntax error) and the member that is wrong (not JSON, another format or version, an entry
    ///   without a valid `fingerprint`, a fingerprint listed twice), and what to do.
    package static func load(_ path: String, text: String) throws -> FindingBaseline {
        let bytes = Array(text.utf8)
        func bad(_ what: String, at offset: Int? = nil, column: Bool = false) -> LifecycleLogError {
            var line: Int?, col: Int?
            if let offset {
                let before = bytes[..<min(offset, bytes.count)]
                line = before.count { $0 == UInt8(ascii: "\n") } + 1
                if column { col = before.count - ((before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1) + 1 }
            }
            return LifecycleLogError(.invalidInput, "is not a baseline replay can read: \(what); write one with replay TRACES --write-baseline FILE",
                                     path: path, line: line, column: col)
        }
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { throw bad("the file is empty") }
        let parsed: JSONValue
        do {
            parsed = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
        } catch let error as JSONParser.Failure {
            throw bad("not valid JSON (\(error.message))", at: error.offset, column: true)
        } catch {
            throw bad("not valid JSON (\(error))")
        }
        guard case .object(let top) = parsed else { throw bad("not a JSON object") }
        func member(_ members: [JSONMember], _ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
        func shown(_ value: JSONValue?) -> String {
            guard let value else { return "missing" }
            var out: [UInt8] = []
            JSONWriter.write(value, into: &out)
            let text = String(decoding: out, as: UTF8.self)
            return "\(text.count > 40 ? String(text.prefix(40)) + "…" : text)"
        }
        let format = member(top, "format")
        guard format == .string(Self.format) else { throw bad("\"format\" must be \"\(Self.format)\" (it is \(shown(format)))") }
        let version = member(top, "version")
        guard case .number(let v)? = version, v == String(Self.version) else {
            throw bad("\"version\" must be \(Self.version) (it is \(shown(version)); a newer replay may have written it)")
        }
        guard case .array(let items)? = member(top, "findings") else { throw bad("\"findings\" must be a list (it is \(shown(member(top, "findings"))))") }
        let starts = elementOffsets(of: "findings", in: bytes)
        var entries: [Entry] = []
        var lineOf: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            let offset = i < starts.count ? starts[i] : nil
            guard case .object(let m) = item else { throw bad("findings[\(i)] must be an object", at: offset) }
            let value = member(m, "fingerprint")
            guard case .string(let fingerprint)? = value, fingerprint.utf8.count == 16,
                  fingerprint.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw bad("findings[\(i)].fingerprint must be 16 lower-case hex digits (it is \(shown(value)))", at: offset)
            }
            if let first = lineOf[fingerprint] {
                throw bad("findings[\(i)].fingerprint \(fingerprint) is listed twice (also findings[\(first)])", at: offset)
            }
            lineOf[fingerprint] = i
            func text(_ name: String) -> String { if case .string(let s)? = member(m, name) { s } else { "" } }
            var seq: UInt64 = 0
            if case .number(let n)? = member(m, "seq"), let s = UInt64(n) { seq = s }
            entries.append(Entry(fingerprint: fingerprint, rule: text("rule"), severity: text("severity"), subject: text("subject"),
                                 trace: text("trace"), seq: seq, message: text("message")))
        }
        return FindingBaseline(entries: entries)
    }

    /// The byte offsets at which the elements of the array member `name` of the top-level object
    /// start, in `bytes` that parse as JSON: so that an error in an entry names its line.
    static func elementOffsets(of name: String, in bytes: [UInt8]) -> [Int] {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let key = Array(name.utf8)
        var offsets: [Int] = []
        var depth = 0
        var inTarget = false       // inside the array: its elements are at depth 2
        var expectElement = false  // after its `[` or a `,` between its elements
        var lastKeyMatches = false // the last string at depth 1 was `name`
        var i = 0
        func element(at offset: Int) {
            if inTarget && depth == 2 && expectElement {
                offsets.append(offset)
                expectElement = false
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case quote:
                element(at: i)
                let start = i + 1
                i += 1
                while i < bytes.count && bytes[i] != quote { i += bytes[i] == backslash ? 2 : 1 }
                if depth == 1 { lastKeyMatches = i <= bytes.count && Array(bytes[start..<min(i, bytes.count)]) == key }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                element(at: i)
                if b == UInt8(ascii: "[") && depth == 1 && lastKeyMatches {
                    inTarget = true
                    expectElement = true
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 1 { inTarget = false }
            case UInt8(ascii: ","):
                if inTarget && depth == 2 { expectElement = true }
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
                break
            default:
                element(at: i)  // a number or a literal
            }
            i += 1
        }
        return offsets
    }
}
