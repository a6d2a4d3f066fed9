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
        findings.contains { $0.severity == .error || strict }
    }

    /// The text lines of this report: one per finding, then a summary line.
    public func text() -> String {
        var out = ""
        for f in findings {
            out += "\(trace):\(f.seq): \(f.severity.rawValue): [\(f.rule.rawValue)] \(f.message)"
            if !f.related.isEmpty { out += " (related: \(f.related.map(String.init).joined(separator: ", ")))" }
            out += "\n"
        }
        out += "\(trace): \(events) events, \(runs) run\(runs == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
        return out
    }

    /// The spec's JSON report object. With `pretty`, each finding stands on a
    /// line of its own (the layout of expected-report files, for readable diffs).
    public func json(pretty: Bool = false, traceName: String? = nil) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"trace\":")
        JSONWriter.writeString(traceName ?? trace, into: &out)
        raw(",\"events\":\(events),\"runs\":\(runs),")
        if pretty { raw("\n ") }
        raw("\"findings\":[")
        for (i, f) in findings.enumerated() {
            if i > 0 { raw(",") }
            if pretty { raw("\n  ") }
            raw("{\"rule\":\"\(f.rule.rawValue)\",\"severity\":\"\(f.severity.rawValue)\",\"seq\":\(f.seq),\"related\":[\(f.related.map(String.init).joined(separator: ","))],\"message\":")
            JSONWriter.writeString(f.message, into: &out)
            raw("}")
        }
        if pretty && !findings.isEmpty { raw("\n ") }
        raw("],")
        if pretty { raw("\n ") }
        raw("\"summary\":{\"errors\":\(errors),\"warnings\":\(warnings)}}\n")
        return String(decoding: out, as: UTF8.self)
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
            if reports.count > 1 {
                let errors = reports.reduce(0) { $0 + $1.errors }
                let warnings = reports.reduce(0) { $0 + $1.warnings }
                out += "total: \(reports.count) traces: \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n"
            }
            return out
        case .json:
            if reports.count == 1 { return reports[0].json() }
            let errors = reports.reduce(0) { $0 + $1.errors }
            let warnings = reports.reduce(0) { $0 + $1.warnings }
            let inner = reports.map { String($0.json().dropLast()) }.joined(separator: ",")
            return "{\"reports\":[\(inner)],\"summary\":{\"errors\":\(errors),\"warnings\":\(warnings)}}\n"
        case .junit:
            return junit(reports, strict: strict)
        case .sarif:
            return sarif(reports)
        }
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

    /// JUnit XML: a test suite per trace, a test case per rule; the findings
    /// of a rule that fails (`error`, or any with `strict`) are its failure.
    static func junit(_ reports: [ReplayReport], strict: Bool) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totalFailures = reports.reduce(0) { total, r in total + Set(r.findings.filter { $0.severity == .error || strict }.map(\.rule)).count }
        out += "<testsuites name=\"replay\" tests=\"\(reports.count * Rule.allCases.count)\" failures=\"\(totalFailures)\">\n"
        for report in reports {
            let failing = Set(report.findings.filter { $0.severity == .error || strict }.map(\.rule))
            out += "  <testsuite name=\"\(xml(report.trace))\" tests=\"\(Rule.allCases.count)\" failures=\"\(failing.count)\" errors=\"0\" skipped=\"0\">\n"
            for rule in Rule.allCases.sorted() {
                let found = report.findings.filter { $0.rule == rule }
                out += "    <testcase classname=\"\(xml(report.trace))\" name=\"\(rule.rawValue)\""
                if found.isEmpty {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                let body = found.map { "\(report.trace):\($0.seq): \($0.severity.rawValue): \($0.message)" }.joined(separator: "\n")
                if failing.contains(rule) {
                    out += "      <failure message=\"\(xml("\(found.count) finding\(found.count == 1 ? "" : "s"), first at seq \(found[0].seq)"))\" type=\"\(rule.rawValue)\">\(xml(body))</failure>\n"
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

    /// SARIF 2.1.0: one run of the `replay` tool, the catalogue as its rules,
    /// a result per finding located in the trace file, with the seq.
    static func sarif(_ reports: [ReplayReport]) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func str(_ s: String) { JSONWriter.writeString(s, into: &out) }
        raw("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"replay\",\"informationUri\":\"https://github.com/lifecyclelog/LifecycleLog\",\"version\":\"0.1.0\",\"rules\":[")
        let rules = Rule.allCases.sorted()
        for (i, rule) in rules.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"id\":\"\(rule.rawValue)\",\"shortDescription\":{\"text\":")
            str(rule.summary)
            raw("},\"defaultConfiguration\":{\"level\":\"\(rule.defaultSeverity.rawValue)\"}}")
        }
        raw("]}},\"results\":[")
        var first = true
        for report in reports {
            for f in report.findings {
                if !first { raw(",") }
                first = false
                // `!`: every rule is in `rules`.
                raw("{\"ruleId\":\"\(f.rule.rawValue)\",\"ruleIndex\":\(rules.firstIndex(of: f.rule)!),\"level\":\"\(f.severity.rawValue)\",\"message\":{\"text\":")
                str("seq \(f.seq): \(f.message)")
                raw("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
                str(report.trace)
                raw("}},\"logicalLocations\":[{\"name\":\"seq \(f.seq)\",\"kind\":\"event\"}]}],\"properties\":{\"seq\":\(f.seq),\"related\":[\(f.related.map(String.init).joined(separator: ","))]}}")
            }
        }
        raw("]}]}\n")
        return String(decoding: out, as: UTF8.self)
    }
}
