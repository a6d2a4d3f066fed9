extension ReportRenderer {
    /// SARIF 2.1.0 up to the opening of the results array: one run of the
    /// `replay` tool (version `LifecycleLogVersion.current`), with the catalogue as its rules.
    public static let sarifPrefix: String = {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"replay\",\"informationUri\":\"https://github.com/lifecyclelog/LifecycleLog\",\"version\":\"\(LifecycleLogVersion.current)\",\"rules\":[")
        for (i, rule) in Rule.allCases.sorted().enumerated() {
            if i > 0 { raw(",") }
            raw("{\"id\":\"\(rule.rawValue)\",\"shortDescription\":{\"text\":")
            JSONWriter.writeString(rule.summary, into: &out)
            raw("},\"defaultConfiguration\":{\"level\":\"\(rule.defaultSeverity.rawValue)\"}}")
        }
        raw("]}},\"results\":[")
        return String(decoding: out, as: UTF8.self)
    }()

    /// The end of a SARIF log: the run's invocation, successful unless some
    /// traces were `unreadable`, each of which is then an error notification
    /// located in its file (`invocations[0].toolExecutionNotifications`).
    public static func sarifSuffix(unreadable: [LifecycleLogError] = []) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("],\"invocations\":[{\"executionSuccessful\":\(unreadable.isEmpty)")
        if !unreadable.isEmpty {
            raw(",\"toolExecutionNotifications\":[")
            for (i, error) in unreadable.enumerated() {
                if i > 0 { raw(",") }
                raw("{\"level\":\"error\",\"message\":{\"text\":")
                JSONWriter.writeString(error.description, into: &out)
                raw("},\"descriptor\":{\"id\":\"\(error.code)\"}")
                if let path = error.path {
                    raw(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
                    JSONWriter.writeString(sarifURI(path), into: &out)
                    raw("}")
                    if let line = error.line { raw(",\"region\":{\"startLine\":\(line)}") }
                    raw("}}]")
                }
                raw("}")
            }
            raw("]")
        }
        raw("}]}]}\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// One finding as a SARIF result: located in the trace file (with a
    /// `region` at the event's line for a JSON Lines trace), named by its seq
    /// as a logical location, and with a stable fingerprint
    /// (`FindingFingerprints`; pass one fingerprinter per trace, in report order).
    package static func sarifResult(_ f: Finding, trace: String, fingerprints: inout FindingFingerprints) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        // An app's own rule (Rule.custom) is not among the tool's rules: it has an id and no index.
        let index = Rule.allCases.sorted().firstIndex(of: f.rule).map { ",\"ruleIndex\":\($0)" } ?? ""
        raw("{\"ruleId\":\"\(f.rule.rawValue)\"\(index),\"level\":\"\(f.severity.rawValue)\",\"message\":{\"text\":")
        JSONWriter.writeString("seq \(f.seq): \(f.message)", into: &out)
        raw("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
        JSONWriter.writeString(sarifURI(trace), into: &out)
        raw("}")
        if let line = f.line { raw(",\"region\":{\"startLine\":\(line)}") }
        raw("},\"logicalLocations\":[{\"name\":\"seq \(f.seq)\",\"kind\":\"event\"}]}],\"partialFingerprints\":{\"\(FindingFingerprints.key)\":\"\(fingerprints.next(f))\"},\"properties\":{\"seq\":\(f.seq),\"related\":[\(f.related.map(String.init).joined(separator: ","))]}}")
        return String(decoding: out, as: UTF8.self)
    }

    /// A trace's path as a SARIF `artifactLocation.uri` (an RFC 3986 URI
    /// reference): every byte of the UTF-8 path but the unreserved characters
    /// and `/` percent-encoded, and an absolute path as a `file://` URI.
    public static func sarifURI(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = path.hasPrefix("/") ? Array("file://".utf8) : []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension ReportRenderer {
    /// SARIF with `baselineState` on every result (SARIF 2.1.0, §3.27.24): `new` for a finding
    /// whose identity `baseline` does not hold, `unchanged` for one it does, and a result with
    /// `absent` for each entry no finding of `reports` has, carrying the entry's rule, severity,
    /// message and example (trace and seq) as the baseline recorded them, without a location.
    package static func sarif(_ reports: [ReplayReport], baseline: FindingBaseline, unreadable: [LifecycleLogError] = []) -> String {
        var results: [String] = []
        var seen: Set<String> = []
        for report in reports {
            var fingerprints = FindingFingerprints()
            for f in report.findings {
                let fingerprint = FindingBaseline.fingerprint(f)
                seen.insert(fingerprint)
                let state = baseline.state(of: fingerprint).rawValue
                results.append(String(sarifResult(f, trace: report.trace, fingerprints: &fingerprints).dropLast()) + ",\"baselineState\":\"\(state)\"}")
            }
        }
        let ruleIndex = Dictionary(uniqueKeysWithValues: Rule.allCases.sorted().enumerated().map { ($1.rawValue, $0) })
        for entry in baseline.absent(seen: seen) {
            var out: [UInt8] = []
            func raw(_ s: String) { out.append(contentsOf: s.utf8) }
            raw("{")
            if !entry.rule.isEmpty {  // a file another tool wrote may leave the rule out
                raw("\"ruleId\":")
                JSONWriter.writeString(entry.rule, into: &out)
                if let index = ruleIndex[entry.rule] { raw(",\"ruleIndex\":\(index)") }
                raw(",")
            }
            let level = entry.severity == "error" || entry.severity == "warning" ? entry.severity : "warning"
            raw("\"level\":\"\(level)\",\"message\":{\"text\":")
            JSONWriter.writeString("in the baseline, not found in this run (it was at seq \(entry.seq) of \(entry.trace)): \(entry.message)", into: &out)
            raw("},\"partialFingerprints\":{\"\(FindingFingerprints.key)\":\"\(entry.fingerprint):1\"},\"baselineState\":\"\(FindingBaseline.State.absent.rawValue)\"}")
            results.append(String(decoding: out, as: UTF8.self))
        }
        return sarifPrefix + results.joined(separator: ",") + sarifSuffix(unreadable: unreadable)
    }
}
