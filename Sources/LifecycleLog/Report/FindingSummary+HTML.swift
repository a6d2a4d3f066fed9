import LifecycleLogRules

extension FindingSummary {
    /// The summary as one self-contained HTML page (`replay summary --format html`): the totals,
    /// a table of the groups in report order, the traces that could not be read, and the
    /// `replay report` commands that write the example traces' timeline pages.
    ///
    /// Each group's example links to its trace's timeline page as `replay report` writes it,
    /// at the finding: ``timelinePage(for:)`` of the trace's name, then `#seq-N`, which the
    /// timeline page answers by selecting and zooming to the finding at seq N. The pages are
    /// not written here: `reportCommand` gives, for an example, the command that writes its
    /// page where the link points, and the page lists those commands. The same summary always
    /// gives the same bytes.
    package func html(reportCommand: (Example) -> String) -> String {
        let escape = Timeline.escapeHTML
        var page = Self.htmlHead
        page += "<header><h1>Lifecycle findings summary</h1><p class=\"totals\">\(escape(String(totalsLine().dropLast())))</p></header>\n"
        let sorted = sortedGroups
        if sorted.isEmpty {
            page += "<p class=\"none\">No findings in the traces replayed.</p>\n"
        } else {
            page += "<table id=\"groups\"><thead><tr><th>traces</th><th>runs</th><th>findings</th><th>severity</th><th>rule</th>"
                + "<th>subject</th><th>builds</th><th>first seen</th><th>last seen</th><th>OS</th><th>platforms</th><th>processes</th>"
                + "<th>example</th></tr></thead>\n<tbody>\n"
            for group in sorted {
                let example = group.example
                let href = Self.percentEncoded(Self.timelinePage(for: example.name)) + "#seq-\(example.seq)"
                page += "<tr id=\"g-\(group.fingerprint)\" title=\"fingerprint \(group.fingerprint)\">"
                    + "<td class=\"n\">\(group.traces)</td><td class=\"n\">\(group.runs)</td><td class=\"n\">\(group.findings)</td>"
                    + "<td class=\"sev-\(group.severity.rawValue)\">\(group.severity.rawValue)</td>"
                    + "<td>\(escape(group.rule.rawValue))</td><td>\(escape(Self.subjectText(group.subject)))</td>"
                    + "<td>\(escape(Self.htmlList(group.sortedBuilds)))</td>"
                    + "<td>\(escape(group.firstSeenBuild ?? "–"))</td><td>\(escape(group.lastSeenBuild ?? "–"))</td>"
                    + "<td>\(escape(Self.htmlList(group.sortedOSVersions)))</td><td>\(escape(Self.htmlList(group.sortedPlatforms)))</td>"
                    + "<td>\(escape(Self.htmlList(group.sortedProcesses.map { $0.isEmpty ? "main app" : $0 })))</td>"
                    + "<td><a href=\"\(escape(href))\">\(escape(example.name)) seq \(example.seq)</a>"
                    + "<div class=\"msg\">\(escape(example.message))</div></td></tr>\n"
            }
            page += "</tbody></table>\n"
        }
        let unreadable = sortedUnreadable
        if !unreadable.isEmpty {
            page += "<h2>Traces that could not be read</h2>\n<ul class=\"unreadable\">\n"
            for trace in unreadable { page += "<li>\(escape(trace.reason))</li>\n" }
            page += "</ul>\n"
        }
        if !sorted.isEmpty {
            // One command per example trace, in the order of the table.
            var seen: Set<Int> = []
            var commands: [String] = []
            for group in sorted where seen.insert(group.example.order).inserted { commands.append(reportCommand(group.example)) }
            page += "<h2>Timeline pages</h2>\n<p class=\"note\">Each example links to its trace's timeline page at the finding "
                + "(<code>NAME.html#seq-N</code>, beside this page). <code>replay report</code> writes them:</p>\n<pre>"
                + commands.map(escape).joined(separator: "\n") + "</pre>\n"
        }
        page += "</body>\n</html>\n"
        return page
    }

    /// The timeline page of the trace named `name` (its path inside the folder given, or its file
    /// name), relative to the summary page: the name with its extension replaced by `.html`
    /// (`sub/a.lmdb` → `sub/a.html`; a name without one gets `.html` added).
    package static func timelinePage(for name: String) -> String {
        let fileStart = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        if let dot = name[fileStart...].lastIndex(of: "."), dot != fileStart { return name[..<dot] + ".html" }
        return name + ".html"
    }

    /// `path` with every byte but ASCII letters, digits, `-._~` and `/` percent-encoded, for an `href`.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let plain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
                || byte == UInt8(ascii: "/")
            if plain {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// A list as the page shows it: the first ``listedValues``, then how many more (not escaped).
    private static func htmlList(_ values: [String]) -> String {
        guard !values.isEmpty else { return "–" }
        let shown = values.prefix(listedValues).joined(separator: ", ")
        return values.count > listedValues ? "\(shown) and \(values.count - listedValues) more" : shown
    }

    private static let htmlHead = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Lifecycle findings summary</title>
        <style>
        body { margin: 0 16px 24px; font: 13px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #202124; }
        h1 { font-size: 16px; margin: 12px 0 4px; font-weight: 600; }
        h2 { font-size: 14px; margin: 20px 0 6px; font-weight: 600; }
        .totals, .note, .none { color: #5f6368; margin: 4px 0 12px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
        th { position: sticky; top: 0; background: #fff; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        tr:hover { background: #f1f3f4; }
        .sev-error { color: #d32f2f; font-weight: 600; }
        .sev-warning { color: #ef6c00; font-weight: 600; }
        .msg { color: #5f6368; font-size: 12px; max-width: 520px; }
        pre { background: #f8f9fa; padding: 8px; overflow-x: auto; }
        a { color: #1a73e8; }
        </style>
        </head>
        <body>

        """
}
