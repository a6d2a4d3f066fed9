/// GitHub Actions workflow commands: one annotation per finding, which
/// GitHub shows on the trace file (at the event's line for a JSON Lines
/// trace) and in the run's summary.
///
/// ```
/// ::error file=traces/a.jsonl,line=18,title=lost-update (seq 13)::Window w2 wrote …
/// ```
package enum GitHubWorkflow {
    /// A command's message, escaped as the runner expects: `%`, `\r` and `\n`
    /// as `%25`, `%0D` and `%0A`. Other control characters from the trace are
    /// made visible (`VisibleText`), so none reaches the log raw.
    package static func escapeData(_ text: String) -> String {
        VisibleText.escape(text) { c in
            switch c {
            case "%": return "%25"
            case "\r": return "%0D"
            case "\n": return "%0A"
            default: return nil
            }
        }
    }

    /// A command's property value (`file=`, `title=`): as ``escapeData(_:)``,
    /// and `:` and `,`, which end a property, as `%3A` and `%2C`.
    package static func escapeProperty(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for c in escapeData(text).unicodeScalars {
            switch c {
            case ":": out.append(contentsOf: "%3A".unicodeScalars)
            case ",": out.append(contentsOf: "%2C".unicodeScalars)
            default: out.append(c)
            }
        }
        return String(out)
    }

    /// The `::error` or `::warning` line of one finding of `trace`: `line=` for
    /// a JSON Lines trace; the seq is in the title, the related seqs after the message.
    package static func annotation(_ f: Finding, trace: String) -> String {
        var properties = "file=\(escapeProperty(trace))"
        if let line = f.line { properties += ",line=\(line)" }
        properties += ",title=\(escapeProperty("\(f.rule.rawValue) (seq \(f.seq))"))"
        let related = f.related.isEmpty ? "" : " (related: \(f.related.map(String.init).joined(separator: ", ")))"
        return "::\(f.severity.rawValue) \(properties)::\(escapeData(f.message + related))\n"
    }

    /// The `::error` line of a trace that could not be replayed.
    package static func annotation(_ error: LifecycleLogError) -> String {
        var properties = error.path.map { "file=\(escapeProperty($0))," } ?? ""
        if let line = error.line { properties += "line=\(line)," }
        properties += "title=\(escapeProperty("replay could not read the trace"))"
        return "::error \(properties)::\(escapeData(error.description))\n"
    }
}

/// The Markdown job summary of a `--format github` run (for the file named by
/// `$GITHUB_STEP_SUMMARY`): a table of the traces and their counts, then the
/// first ``findingsShown`` findings. It keeps only those, so it is gathered in
/// bounded memory while findings stream by.
package struct GitHubStepSummary: Sendable {
    /// How many findings are listed; the rest are counted.
    package static let findingsShown = 100

    private var rows: [String] = []
    private var findings: [String] = []
    private var moreFindings = 0
    private var errors = 0, warnings = 0, traces = 0, unreadable = 0

    /// An empty summary.
    package init() {}

    /// Adds a finding of `trace` (in report order).
    package mutating func add(_ f: Finding, trace: String) {
        guard findings.count < Self.findingsShown else {
            moreFindings += 1
            return
        }
        let location = f.line.map { "\(trace):\($0)" } ?? "\(trace) seq \(f.seq)"
        findings.append("| \(Self.cell(location)) | \(f.severity.rawValue) | \(f.rule.rawValue) | \(Self.cell(f.message)) |")
    }

    /// Adds the counts of a replayed trace (its findings go through ``add(_:trace:)``).
    package mutating func add(_ report: ReplayReport) {
        traces += 1
        errors += report.errors
        warnings += report.warnings
        rows.append("| \(Self.cell(report.trace)) | \(report.events) | \(report.runs) | \(report.errors) | \(report.warnings) |")
    }

    /// Adds a trace that could not be replayed.
    package mutating func add(unreadable error: LifecycleLogError) {
        unreadable += 1
        rows.append("| \(Self.cell(error.path ?? "")) | could not be read: \(Self.cell(error.message)) | | | |")
    }

    /// The summary as GitHub-flavoured Markdown.
    package func markdown() -> String {
        var out = "## replay: \(plural(errors, "error")), \(plural(warnings, "warning")) in \(plural(traces, "trace"))"
        if unreadable > 0 { out += ", \(unreadable) unreadable" }
        out += "\n\n| trace | events | runs | errors | warnings |\n|---|---:|---:|---:|---:|\n"
        out += rows.map { $0 + "\n" }.joined()
        if !findings.isEmpty {
            out += "\n| location | severity | rule | message |\n|---|---|---|---|\n"
            out += findings.map { $0 + "\n" }.joined()
            if moreFindings > 0 { out += "\n… and \(moreFindings) more finding\(moreFindings == 1 ? "" : "s") (see the annotations or run replay locally).\n" }
        }
        return out + "\n"
    }

    /// A table cell: control characters visible, and what Markdown or HTML
    /// would read as markup (`|`, `<`, `*`, backticks, …) escaped.
    static func cell(_ text: String) -> String {
        var out = ""
        for c in VisibleText.escape(text).unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "|", "\\", "`", "*", "_", "[", "]", "#", "~": out += "\\"; out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
