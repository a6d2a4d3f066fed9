/// Golden-file comparison for regression fixtures (`replay TRACE --expect FILE`).
public enum ExpectedReport {
    /// The options an expected report was made with, recorded in its `options` member so that
    /// `--expect` replays the trace the same way: `{"explore":true,"rules":"../rules.json"}`.
    /// A report without the member was made with none (so are the files of earlier versions).
    public struct Options: Sendable, Hashable, CustomStringConvertible {
        /// Whether the what-if rules ran (`--explore`).
        public var explore: Bool
        /// The `--rules` file, as its path relative to the folder of the expected report (or an
        /// absolute path), with `/` between the names; `nil` for the catalogue's defaults.
        public var rules: String?

        /// Options; by default none.
        public init(explore: Bool = false, rules: String? = nil) {
            self.explore = explore
            self.rules = rules
        }

        /// Whether there are none (the member is then left out).
        public var isEmpty: Bool { !explore && rules == nil }

        /// The options as command-line words, such as `--explore --rules ../rules.json` (the
        /// rules path as recorded), or `"no options"`.
        public var description: String {
            let words = (explore ? ["--explore"] : []) + (rules.map { ["--rules \($0)"] } ?? [])
            return words.isEmpty ? "no options" : words.joined(separator: " ")
        }

        /// The path of the rules file for an expected report at `expectedPath`: `rules`
        /// resolved against the report's folder.
        public func rulesPath(expectedAt expectedPath: String) -> String? {
            guard let rules else { return nil }
            if rules.hasPrefix("/") { return rules }
            guard let slash = expectedPath.lastIndex(of: "/") else { return rules }
            return String(expectedPath[...slash]) + rules
        }

        fileprivate var json: String {
            var out: [UInt8] = Array("{".utf8)
            if explore { out += Array("\"explore\":true".utf8) }
            if let rules {
                if explore { out.append(UInt8(ascii: ",")) }
                out += Array("\"rules\":".utf8)
                JSONWriter.writeString(rules, into: &out)
            }
            out.append(UInt8(ascii: "}"))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The text of an expected-report file for `report`: its JSON report with
    /// the trace named by its file name only (so the file does not depend on
    /// where the trace sits), the options it was made with (when there are
    /// any, as an `options` member after `trace`) and one finding per line.
    public static func render(_ report: ReplayReport, options: Options = Options()) -> String {
        let text = report.json(pretty: true, traceName: fileName(report.trace))
        guard !options.isEmpty else { return text }
        var name: [UInt8] = Array("{\"trace\":".utf8)
        JSONWriter.writeString(fileName(report.trace), into: &name)
        let prefix = String(decoding: name, as: UTF8.self)
        // `render` writes the trace member first; `!`-free: fall back to the plain text otherwise.
        guard text.hasPrefix(prefix) else { return text }
        return prefix + ",\"options\":" + options.json + text.dropFirst(prefix.count)
    }

    /// The options recorded in an expected report's text (its `options` member), or none when
    /// it has no such member, as in the files of versions before it was added.
    ///
    /// - Throws: `LifecycleLogError` `invalidInput` when the text is not a report, or its
    ///   `options` is not an object of the known options (`explore`: a boolean, `rules`: a
    ///   non-empty string): an option this version does not know would change the report.
    public static func options(in expectedText: String, path: String) throws -> Options {
        let members = try parse(expectedText, path: path)
        guard let member = members.first(where: { $0.name == "options" }) else { return Options() }
        guard case .object(let fields) = member.value else {
            throw LifecycleLogError(.invalidInput, "the expected report's \"options\" must be an object, like {\"explore\":true}", path: path)
        }
        var options = Options()
        for field in fields {
            switch (field.name, field.value) {
            case ("explore", .bool(let value)): options.explore = value
            case ("rules", .string(let value)) where !value.isEmpty: options.rules = value
            case ("explore", _):
                throw LifecycleLogError(.invalidInput, "the expected report's option \"explore\" must be true or false", path: path)
            case ("rules", _):
                throw LifecycleLogError(.invalidInput, "the expected report's option \"rules\" must be the path of a rules file, relative to the expected report's folder", path: path)
            default:
                throw LifecycleLogError(.invalidInput,
                    "the expected report records the option \"\(field.name)\", which this version of replay does not know "
                    + "(it knows explore and rules); use the replay that wrote it, or write it again with --update-expected",
                    path: path)
            }
        }
        return options
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
    /// and `options` members are never compared: the options say how to replay
    /// the trace (``options(in:path:)``), which is the caller's to do.
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
        let recorded = (try? options(in: expectedText, path: expectedPath)) ?? Options()
        if !recorded.explore && !report.findings.contains(where: { $0.rule == .killExposure }) && expectsWhatIfFindings(expectedMembers) {
            // An expected report of a version that did not record options, made with --explore:
            // --update-expected alone would write its what-if findings out (issue 30: 7).
            out += "The expected report has kill-exposure findings, which only --explore gives, but records no --explore "
                + "(it was written before expected reports recorded their options): write it again with --update-expected --explore "
                + "to record the option, then check the diff.\n"
            return out
        }
        out += "To fix, correct the app (or the trace) so that replay finds what is expected, or, if the new findings are right, accept them with --update-expected"
            + (recorded.isEmpty ? ".\n" : " (which keeps the options the expected report records: \(recorded.description)).\n")
        return out
    }

    /// Whether a parsed expected report has a finding of a what-if rule (`kill-exposure`).
    private static func expectsWhatIfFindings(_ members: [JSONMember]) -> Bool {
        guard case .array(let findings)? = members.first(where: { $0.name == "findings" })?.value else { return false }
        return findings.contains { finding in
            guard case .object(let fields) = finding else { return false }
            return fields.contains { $0.name == "rule" && $0.value == .string(Rule.killExposure.rawValue) }
        }
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
        for m in members where !(compared && (m.name == "trace" || m.name == "options")) {
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
