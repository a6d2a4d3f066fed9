/// Golden-file comparison for regression fixtures (`replay TRACE --expect FILE`).
public enum ExpectedReport {
    /// The text of an expected-report file for `report`: its JSON report with
    /// the trace named by its file name only (so the file does not depend on
    /// where the trace sits) and one finding per line.
    public static func render(_ report: ReplayReport) -> String {
        report.json(pretty: true, traceName: fileName(report.trace))
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Compares `report` with the expected file's text. Returns `nil` when
    /// they agree, else a readable diff: what differs, the lines
    /// (expected −, actual +), and how to fix it.
    ///
    /// The comparison is of meaning, not layout: both sides are parsed and
    /// re-rendered, and the `trace` member is not compared.
    ///
    /// - Throws: `LifecycleLogError` `invalidInput` when `expectedText` is not a report.
    public static func difference(_ report: ReplayReport, expectedText: String, expectedPath: String) throws -> String? {
        var bytes = Array(expectedText.utf8)
        let parsed: JSONValue
        do {
            parsed = try bytes.withUnsafeMutableBufferPointer { buf throws(JSONParser.Failure) in try JSONParser.parse(UnsafeBufferPointer(buf)) }
        } catch {
            throw LifecycleLogError(.invalidInput, "the expected report is not valid JSON (\(error.message)); regenerate it with --update-expected", path: expectedPath)
        }
        guard case .object(let members) = parsed else {
            throw LifecycleLogError(.invalidInput, "the expected report must be one JSON object; regenerate it with --update-expected", path: expectedPath)
        }
        let actualLines = lines(of: render(report))
        let expectedLines = lines(of: layout(members))
        // The trace's name is not compared: drop it from the first line of each side, once.
        let comparable = { (lines: [String]) in lines.map { $0.hasPrefix("{\"trace\":") ? String($0.drop { $0 != "," }) : $0 } }
        let actualCompared = comparable(actualLines), expectedCompared = comparable(expectedLines)
        if actualCompared == expectedCompared { return nil }
        var out = "\(report.trace): the report differs from \(expectedPath) (expected −, actual +):\n"
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

    private static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Lays out a parsed report the way ``render(_:)`` does, so that layout
    /// differences never count.
    private static func layout(_ members: [JSONMember]) -> String {
        var out: [UInt8] = []
        out.append(UInt8(ascii: "{"))
        var first = true
        for m in members {
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
                    JSONWriter.write(item, into: &out)
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
