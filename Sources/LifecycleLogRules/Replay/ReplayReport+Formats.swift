import LifecycleLogRecorder

extension ReplayReport {
    /// Whether `--assert` fails on this report: any error, with `strict` any
    /// warning, or no events at all (see ``emptyTraceMessage``).
    public func fails(strict: Bool) -> Bool {
        events == 0 || errors > 0 || (strict && warnings > 0)
    }

    /// Why `--assert` fails a trace without events. A trace that is empty or
    /// holds only a header is well-formed, so it is not bad input; but it shows
    /// nothing was recorded, and an assertion that no bug happened cannot pass
    /// on a session that did not happen.
    public var emptyTraceMessage: String {
        "\(VisibleText.escape(trace)): the trace has no events, so --assert has nothing to check; an empty or header-only trace usually means the recorder never ran: check the recording step, or remove the file from the checked traces"
    }

    /// The text line of one finding of the trace at `trace`: its location
    /// (``Finding/location(in:)``), severity, rule, message and seqs, with
    /// control characters from the trace escaped (`VisibleText`).
    public static func textLine(_ f: Finding, trace: String) -> String {
        var out: [UInt8] = []
        appendTextLine(f, trace: trace, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``textLine(_:trace:)`` appended to `out` as UTF-8, byte for byte the same, with no `String`
    /// made on the way: `replay --assert` writes every finding through here, and the
    /// interpolated line cost about 9,000 instructions.
    package static func appendTextLine(_ f: Finding, trace: String, to out: inout [UInt8]) {
        f.appendLocation(in: trace, to: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: f.severity.rawValue.utf8)
        out.append(contentsOf: ": [".utf8)
        out.append(contentsOf: f.rule.rawValue.utf8)
        out.append(contentsOf: "] ".utf8)
        out.append(contentsOf: VisibleText.escape(f.message).utf8)
        f.appendSeqNote(to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// The text summary line.
    public var textSummary: String {
        "\(VisibleText.escape(trace)): \(plural(events, "event")), \(plural(runs, "run")): \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
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
