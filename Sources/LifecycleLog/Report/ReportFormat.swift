/// The output formats of `replay`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// Compiler-style lines (`trace.jsonl:LINE: error: [rule] message (seq S)`,
    /// `trace.lmdb: seq S: error: [rule] message`; see `Finding.location(in:)`) and a summary.
    case text
    /// The spec's report object (`rules.md`, "Report").
    case json
    /// JUnit XML, for CI test reporters.
    case junit
    /// SARIF 2.1.0, for code-scanning views.
    case sarif
    /// GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`),
    /// which GitHub shows as annotations on the trace files.
    case github
}


/// Reports of several traces rendered together.
public enum ReportRenderer {
    /// Renders `reports` in `format`, with `unreadable` (traces that could not
    /// be replayed) recorded as errors where the format has a place for them
    /// (JSON's `errors`, SARIF's tool notifications, JUnit's `<error>`, GitHub
    /// error annotations; text leaves them to standard error). `strict` decides
    /// which findings count as failures in JUnit output, and `configuration`
    /// which rules JUnit reports as skipped.
    public static func render(_ reports: [ReplayReport], format: ReportFormat, strict: Bool = false,
                              configuration: RuleConfiguration = RuleConfiguration(),
                              unreadable: [LifecycleLogError] = []) -> String {
        switch format {
        case .text:
            var out = reports.map { $0.text() }.joined()
            if reports.count + unreadable.count > 1 { out += textTotal(reports, unreadable: unreadable.count) }
            return out
        case .json:
            if reports.count == 1 && unreadable.isEmpty { return reports[0].json() }
            let errors = reports.reduce(0) { $0 + $1.errors }
            let warnings = reports.reduce(0) { $0 + $1.warnings }
            let inner = reports.map { String($0.json().dropLast()) }.joined(separator: ",")
            let failures = unreadable.map(jsonError).joined(separator: ",")
            return "{\"reports\":[\(inner)],\"errors\":[\(failures)],\"summary\":{\"errors\":\(errors),\"warnings\":\(warnings)}}\n"
        case .junit:
            return junit(reports.map { report in
                var suite = JUnitSuite(trace: report.trace, strict: strict, configuration: configuration)
                report.findings.forEach { suite.add($0) }
                return suite
            }, unreadable: unreadable)
        case .sarif:
            var results: [String] = []
            for report in reports {
                var fingerprints = FindingFingerprints()
                for f in report.findings { results.append(sarifResult(f, trace: report.trace, fingerprints: &fingerprints)) }
            }
            return sarifPrefix + results.joined(separator: ",") + sarifSuffix(unreadable: unreadable)
        case .github:
            return reports.flatMap { r in r.findings.map { GitHubWorkflow.annotation($0, trace: r.trace) } }.joined()
                + unreadable.map(GitHubWorkflow.annotation).joined()
        }
    }

    /// The closing line of a text report over several traces.
    public static func textTotal(_ reports: [ReplayReport], unreadable: Int = 0) -> String {
        let errors = reports.reduce(0) { $0 + $1.errors }
        let warnings = reports.reduce(0) { $0 + $1.warnings }
        let failed = unreadable == 0 ? "" : " (and \(unreadable) that could not be read)"
        return "total: \(plural(reports.count, "trace"))\(failed): \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
    }

    /// One trace that could not be replayed, as an element of the JSON report's `errors`:
    /// `{"trace":…,"code":…,"message":…}` with `"line"` and `"seq"` when known.
    public static func jsonError(_ error: LifecycleLogError) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"trace\":".utf8)
        JSONWriter.writeString(error.path ?? "", into: &out)
        out.append(contentsOf: ",\"code\":\"\(error.code)\"".utf8)
        if let line = error.line { out.append(contentsOf: ",\"line\":\(line)".utf8) }
        if let seq = error.seq { out.append(contentsOf: ",\"seq\":\(seq)".utf8) }
        out.append(contentsOf: ",\"message\":".utf8)
        JSONWriter.writeString(error.description, into: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
