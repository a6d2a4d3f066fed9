/// Golden-file comparison for regression fixtures (`replay TRACE --expect FILE`).
public enum ExpectedReport {
    /// The text of an expected-report file for `report`: its JSON report with
    /// the trace named by its file name only (so the file does not depend on
    /// where the trace sits) and one finding per line.
    public static func render(_ report: ReplayReport) -> String {
        report.json(pretty: true, traceName: fileName(report.trace))
    }

    package static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Compares `report` with the expected file's text. Returns `nil` when
    /// they agree, else a readable diff: what differs, the lines
    /// (expected −, actual +), and how to fix it.
    ///
    /// The comparison is of meaning, not layout: both sides are parsed and
    /// re-rendered. It compares what the rule catalogue makes contract
    /// (spec/rules.md): the counts, and each finding's rule, severity, seq and
    /// related seqs. Message wording is meant for people and changes between
    /// releases, so it is compared only when `messages` is `true`. The `trace`
    /// member is never compared.
    ///
    /// - Throws: `LifecycleLogError` `invalidInput` when `expectedText` is not a report.
    public static func difference(_ report: ReplayReport, expectedText: String, expectedPath: String,
                                  messages: Bool = false) throws -> String? {
        let expectedMembers = try parse(expectedText, path: expectedPath)
        // `!`: render writes a JSON object this parser reads.
        let actualMembers = try! parse(render(report), path: report.trace)
        let expectedLines = lines(of: layout(expectedMembers))
        let actualLines = lines(of: layout(actualMembers))
        let expectedCompared = lines(of: layout(expectedMembers, compared: true, messages: messages))
        let actualCompared = lines(of: layout(actualMembers, compared: true, messages: messages))
        if actualCompared == expectedCompared { return nil }
        var out = "\(report.trace): the report differs from \(expectedPath)"
            + (messages ? "" : " in its counts or its findings' rule, severity, seq or related seqs") + " (expected −, actual +):\n"
        let diff = actualCompared.difference(from: expectedCompared)
        var removed: [Int: String] = [:]
        var inserted: [Int: String] = [:]
        for change in diff {
            switch change {
            case .remove(let offset, let element, _): removed[offset] = element
            case .insert(let offset, let element, _): inserted[offset] = element
            }
        }
        // Walk both sides in step, printing unchanged lines as context.
        var e = 0, a = 0
        let exp = expectedLines, act = actualLines
        while e < exp.count || a < act.count {
            if e < exp.count, removed[e] != nil { out += "− \(exp[e])\n"; e += 1; continue }
            if a < act.count, inserted[a] != nil { out += "+ \(act[a])\n"; a += 1; continue }
            if e < exp.count { out += "  \(exp[e])\n" }
            e += 1; a += 1
        }
        out += "To fix, correct the app (or the trace) so that replay finds what is expected, or, if the new findings are right, accept them with --update-expected.\n"
        return out
    }

    private static func parse(_ text: String, path: String) throws -> [JSONMember] {
        var bytes = Array(text.utf8)
        let parsed: JSONValue
        do {
            parsed = try bytes.withUnsafeMutableBufferPointer { buf throws(JSONParser.Failure) in try JSONParser.parse(UnsafeBufferPointer(buf)) }
        } catch {
            throw LifecycleLogError(.invalidInput, "the expected report is not valid JSON (\(error.message)); regenerate it with --update-expected", path: path)
        }
        guard case .object(let members) = parsed else {
            throw LifecycleLogError(.invalidInput, "the expected report must be one JSON object; regenerate it with --update-expected", path: path)
        }
        return members
    }

    private static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Lays out a parsed report the way ``render(_:)`` does, so that layout
    /// differences never count: one line per finding. For comparing
    /// (`compared`), the `trace` member is left out, and so is each
    /// finding's `message` unless `messages` is set; the lines stay one per finding.
    private static func layout(_ members: [JSONMember], compared: Bool = false, messages: Bool = true) -> String {
        var out: [UInt8] = []
        out.append(UInt8(ascii: "{"))
        var first = true
        for m in members where !(compared && m.name == "trace") {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            if m.name == "findings" || m.name == "summary" { out.append(contentsOf: "\n ".utf8) }
            JSONWriter.writeString(m.name, into: &out)
            out.append(UInt8(ascii: ":"))
            if m.name == "findings", case .array(let items) = m.value {
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: "\n  ".utf8)
                    if compared, !messages, case .object(let fields) = item {
                        JSONWriter.write(.object(fields.filter { $0.name != "message" }), into: &out)
                    } else {
                        JSONWriter.write(item, into: &out)
                    }
                }
                if !items.isEmpty { out.append(contentsOf: "\n ".utf8) }
                out.append(UInt8(ascii: "]"))
            } else {
                JSONWriter.write(m.value, into: &out)
            }
        }
        out.append(contentsOf: "}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
