/// The output formats of `replay`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// Compiler-style lines (`trace.lmdb:SEQ: error: [rule] message`) and a summary.
    case text
    /// The spec's report object (`rules.md`, "Report").
    case json
    /// JUnit XML, for CI test reporters.
    case junit
    /// SARIF 2.1.0, for code-scanning views.
    case sarif
}

extension ReplayReport {
    /// Whether `--assert` fails on this report: any error, or with `strict` any warning.
    public func fails(strict: Bool) -> Bool {
        errors > 0 || (strict && warnings > 0)
    }

    /// The text line of one finding of the trace at `trace`.
    public static func textLine(_ f: Finding, trace: String) -> String {
        var line = "\(trace):\(f.seq): \(f.severity.rawValue): [\(f.rule.rawValue)] \(f.message)"
        if !f.related.isEmpty { line += " (related: \(f.related.map(String.init).joined(separator: ", ")))" }
        return line + "\n"
    }

    /// The text summary line.
    public var textSummary: String {
        "\(trace): \(events) events, \(runs) run\(runs == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
    }

    /// The text lines of this report: one per finding, then a summary line.
    public func text() -> String {
        findings.map { Self.textLine($0, trace: trace) }.joined() + textSummary
    }

    /// One finding as a member of the JSON report's `findings` array.
    public static func jsonFinding(_ f: Finding) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"rule\":\"\(f.rule.rawValue)\",\"severity\":\"\(f.severity.rawValue)\",\"seq\":\(f.seq),\"related\":[\(f.related.map(String.init).joined(separator: ","))],\"message\":".utf8)
        JSONWriter.writeString(f.message, into: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The JSON report up to its `findings` array's opening bracket (for streaming).
    public func jsonPrefix(pretty: Bool, traceName: String?) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"trace\":".utf8)
        JSONWriter.writeString(traceName ?? trace, into: &out)
        out.append(contentsOf: ",\"events\":\(events),\"runs\":\(runs),\(pretty ? "\n " : "")\"findings\":[".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// The JSON report after its `findings` array's elements (for streaming).
    public func jsonSuffix(pretty: Bool, anyFindings: Bool) -> String {
        (pretty && anyFindings ? "\n " : "") + "]," + (pretty ? "\n " : "") + "\"summary\":{\"errors\":\(errors),\"warnings\":\(warnings)}}\n"
    }

    /// The spec's JSON report object. With `pretty`, each finding stands on a
    /// line of its own (the layout of expected-report files, for readable diffs).
    public func json(pretty: Bool = false, traceName: String? = nil) -> String {
        jsonPrefix(pretty: pretty, traceName: traceName)
            + findings.map { (pretty ? "\n  " : "") + Self.jsonFinding($0) }.joined(separator: ",")
            + jsonSuffix(pretty: pretty, anyFindings: !findings.isEmpty)
    }
}

/// Reports of several traces rendered together.
public enum ReportRenderer {
    /// Renders `reports` in `format`. `strict` decides which findings count as
    /// failures in JUnit output.
    public static func render(_ reports: [ReplayReport], format: ReportFormat, strict: Bool = false) -> String {
        switch format {
        case .text:
            var out = reports.map { $0.text() }.joined()
            if reports.count > 1 { out += textTotal(reports) }
            return out
        case .json:
            if reports.count == 1 { return reports[0].json() }
            let errors = reports.reduce(0) { $0 + $1.errors }
            let warnings = reports.reduce(0) { $0 + $1.warnings }
            let inner = reports.map { String($0.json().dropLast()) }.joined(separator: ",")
            return "{\"reports\":[\(inner)],\"summary\":{\"errors\":\(errors),\"warnings\":\(warnings)}}\n"
        case .junit:
            return junit(reports.map { report in
                var suite = JUnitSuite(trace: report.trace, strict: strict)
                report.findings.forEach { suite.add($0) }
                return suite
            })
        case .sarif:
            return sarifPrefix + reports.flatMap { r in r.findings.map { sarifResult($0, trace: r.trace) } }.joined(separator: ",") + sarifSuffix
        }
    }

    /// The closing line of a text report over several traces.
    public static func textTotal(_ reports: [ReplayReport]) -> String {
        let errors = reports.reduce(0) { $0 + $1.errors }
        let warnings = reports.reduce(0) { $0 + $1.warnings }
        return "total: \(reports.count) traces: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if c.value < 0x20 && c != "\n" && c != "\t" { out += "&#\(c.value);" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// One trace's JUnit test suite, gathered finding by finding in bounded
    /// memory: each rule keeps its count and its first ``linesPerRule`` findings.
    public struct JUnitSuite: Sendable {
        /// How many findings of a rule are written out in full.
        public static let linesPerRule = 200
        let trace: String
        let strict: Bool
        var counts: [Rule: (count: Int, failing: Bool, firstSeq: UInt64, lines: [String])] = [:]

        /// An empty suite for `trace`.
        public init(trace: String, strict: Bool) {
            self.trace = trace
            self.strict = strict
        }

        /// Adds a finding.
        public mutating func add(_ f: Finding) {
            var entry = counts[f.rule] ?? (0, false, f.seq, [])
            entry.count += 1
            entry.failing = entry.failing || f.severity == .error || strict
            if entry.lines.count < Self.linesPerRule {
                entry.lines.append("\(trace):\(f.seq): \(f.severity.rawValue): \(f.message)")
            }
            counts[f.rule] = entry
        }
    }

    /// JUnit XML: a test suite per trace, a test case per rule; the findings
    /// of a rule that fails (`error`, or any with `strict`) are its failure.
    public static func junit(_ suites: [JUnitSuite]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totalFailures = suites.reduce(0) { $0 + $1.counts.values.filter(\.failing).count }
        out += "<testsuites name=\"replay\" tests=\"\(suites.count * Rule.allCases.count)\" failures=\"\(totalFailures)\">\n"
        for suite in suites {
            let failing = suite.counts.values.filter(\.failing).count
            out += "  <testsuite name=\"\(xml(suite.trace))\" tests=\"\(Rule.allCases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n"
            for rule in Rule.allCases.sorted() {
                out += "    <testcase classname=\"\(xml(suite.trace))\" name=\"\(rule.rawValue)\""
                guard let entry = suite.counts[rule] else {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                var body = entry.lines.joined(separator: "\n")
                if entry.count > entry.lines.count { body += "\n… and \(entry.count - entry.lines.count) more" }
                if entry.failing {
                    out += "      <failure message=\"\(xml("\(entry.count) finding\(entry.count == 1 ? "" : "s"), first at seq \(entry.firstSeq)"))\" type=\"\(rule.rawValue)\">\(xml(body))</failure>\n"
                } else {
                    out += "      <system-out>\(xml(body))</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// SARIF 2.1.0 up to the opening of the results array: one run of the
    /// `replay` tool, with the catalogue as its rules.
    public static let sarifPrefix: String = {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"replay\",\"informationUri\":\"https://github.com/lifecyclelog/LifecycleLog\",\"version\":\"0.1.0\",\"rules\":[")
        for (i, rule) in Rule.allCases.sorted().enumerated() {
            if i > 0 { raw(",") }
            raw("{\"id\":\"\(rule.rawValue)\",\"shortDescription\":{\"text\":")
            JSONWriter.writeString(rule.summary, into: &out)
            raw("},\"defaultConfiguration\":{\"level\":\"\(rule.defaultSeverity.rawValue)\"}}")
        }
        raw("]}},\"results\":[")
        return String(decoding: out, as: UTF8.self)
    }()

    /// The end of a SARIF log.
    public static let sarifSuffix = "]}]}\n"

    /// One finding as a SARIF result located in the trace file, with the seq.
    public static func sarifResult(_ f: Finding, trace: String) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        // `!`: every rule is in the catalogue.
        raw("{\"ruleId\":\"\(f.rule.rawValue)\",\"ruleIndex\":\(Rule.allCases.sorted().firstIndex(of: f.rule)!),\"level\":\"\(f.severity.rawValue)\",\"message\":{\"text\":")
        JSONWriter.writeString("seq \(f.seq): \(f.message)", into: &out)
        raw("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
        JSONWriter.writeString(trace, into: &out)
        raw("}},\"logicalLocations\":[{\"name\":\"seq \(f.seq)\",\"kind\":\"event\"}]}],\"properties\":{\"seq\":\(f.seq),\"related\":[\(f.related.map(String.init).joined(separator: ","))]}}")
        return String(decoding: out, as: UTF8.self)
    }
}
