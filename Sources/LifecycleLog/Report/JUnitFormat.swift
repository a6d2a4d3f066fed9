extension ReportRenderer {
    /// `text` escaped for XML 1.0 text and attribute values: the five markup
    /// characters become entities, and characters XML 1.0 does not allow
    /// (most C0 controls, U+FFFE, U+FFFF), which no character reference can
    /// carry either, are written as visible escapes such as `\u{1}`
    /// (`VisibleText`). Newlines and tabs stay, for the multi-line bodies.
    static func xml(_ text: String) -> String {
        VisibleText.escape(text) { c in
            switch c {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&apos;"
            case "\n": return "\n"
            case "\t": return "\t"
            default: return nil
            }
        }
    }

    /// One trace's JUnit test suite, gathered finding by finding in bounded
    /// memory: each rule keeps its count and its first ``linesPerRule`` findings.
    public struct JUnitSuite: Sendable {
        /// How many findings of a rule are written out in full.
        public static let linesPerRule = 200
        let trace: String
        let strict: Bool
        let configuration: RuleConfiguration
        var counts: [Rule: (count: Int, failing: Bool, firstSeq: UInt64, lines: [String])] = [:]

        /// An empty suite for `trace`. Rules that `configuration` switches off
        /// (by `--rules`, or `kill-exposure` without `--explore`) did not run:
        /// they are reported as skipped, not as passing.
        public init(trace: String, strict: Bool, configuration: RuleConfiguration = RuleConfiguration()) {
            self.trace = trace
            self.strict = strict
            self.configuration = configuration
        }

        /// Adds a finding.
        public mutating func add(_ f: Finding) {
            var entry = counts[f.rule] ?? (0, false, f.seq, [])
            entry.count += 1
            entry.failing = entry.failing || f.severity == .error || strict
            if entry.lines.count < Self.linesPerRule {
                entry.lines.append(String(ReplayReport.textLine(f, trace: trace).dropLast()))
            }
            counts[f.rule] = entry
        }

        /// Why `rule` did not run, or `nil` when it ran.
        func skipReason(_ rule: Rule) -> String? {
            guard configuration.severity(of: rule) == nil else { return nil }
            if rule == .killExposure && !configuration.explore { return "a what-if rule: it runs only with --explore" }
            return "switched off by the rules file (--rules)"
        }
    }

    /// JUnit XML: a test suite per trace, a test case per rule; the findings
    /// of a rule that fails (`error`, or any with `strict`) are its failure;
    /// rules that did not run are `<skipped/>`. Each trace of `unreadable`
    /// is a suite with one `<error>` test case.
    public static func junit(_ suites: [JUnitSuite], unreadable: [LifecycleLogError] = []) -> String {
        let rules = Rule.allCases.sorted()
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totalFailures = suites.reduce(0) { $0 + $1.counts.values.filter(\.failing).count }
        let totalSkipped = suites.reduce(0) { total, suite in total + rules.count { suite.skipReason($0) != nil } }
        out += "<testsuites name=\"replay\" tests=\"\(suites.count * rules.count + unreadable.count)\" failures=\"\(totalFailures)\" errors=\"\(unreadable.count)\" skipped=\"\(totalSkipped)\">\n"
        for suite in suites {
            let failing = suite.counts.values.filter(\.failing).count
            let skipped = rules.count { suite.skipReason($0) != nil }
            out += "  <testsuite name=\"\(xml(suite.trace))\" tests=\"\(rules.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"\(skipped)\">\n"
            for rule in rules {
                out += "    <testcase classname=\"\(xml(suite.trace))\" name=\"\(rule.rawValue)\""
                if let reason = suite.skipReason(rule) {
                    out += ">\n      <skipped message=\"\(xml(reason))\"/>\n    </testcase>\n"
                    continue
                }
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
        for error in unreadable {
            let name = xml(error.path ?? "")
            out += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            out += "    <testcase classname=\"\(name)\" name=\"replay\">\n"
            out += "      <error message=\"\(xml(error.description))\" type=\"\(error.code)\"/>\n"
            out += "    </testcase>\n  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }
}
