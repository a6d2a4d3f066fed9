import Foundation

/// What the generator reads from the package's sources: the transitions, the rules and the
/// catalogue's order. Each is a declaration of one fixed, documented shape (ARCHITECTURE.md,
/// "Adding a rule"); anything else is an error that names the file and line, never a guess.
struct Declarations {
    /// One rule of the catalogue, as its own file declares it.
    struct RuleType {
        /// The type's name (`LostUpdate`), also its file's (`Rules/LostUpdate.swift`).
        var name: String
        /// Its id (`lost-update`): the type's name in kebab case.
        var id: String
        /// The `CatalogueRules` property that holds it (`lostUpdate`).
        var property: String
        /// The transitions it hears (`static let hears: [TransitionKind] = [...]`).
        var hears: [String]
        /// Its examples' fixtures (`static let exampleFixtures = [...]`), paths in `traces/` without `.jsonl`.
        var fixtures: [String]
    }

    /// ``Transition``'s cases, in order.
    var transitions: [String]
    /// `TransitionKind.frequent`.
    var frequent: [String]
    /// The rules, in the catalogue's order (spec/rules.md section 3's).
    var rules: [RuleType]

    /// A declaration the generator cannot read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ file: String, line: Int? = nil, _ message: String) {
            description = "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
        }
    }

    /// Reads every declaration under `root` (the package).
    init(root: URL) throws {
        let model = root.appendingPathComponent("Sources/LifecycleLogRules/Model")
        transitions = try Self.enumCases(named: "Transition", in: model.appendingPathComponent("Transition.swift"), root: root)
        let kindFile = model.appendingPathComponent("TransitionKind.swift")
        let kinds = try Self.enumCases(named: "TransitionKind", in: kindFile, root: root)
        guard kinds == transitions else {
            throw Problem(Self.relative(kindFile, root), "TransitionKind's cases must be Transition's, in the same order: \(kinds) against \(transitions)")
        }
        frequent = try Self.list(of: "static let frequent: [TransitionKind] = ", in: Self.read(kindFile, root: root),
                                 file: Self.relative(kindFile, root), kinds: kinds)

        let rulesFolder = root.appendingPathComponent("Sources/LifecycleLogRules/Rules")
        var found: [String: RuleType] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: rulesFolder.path).sorted() where file.hasSuffix(".swift") {
            let url = rulesFolder.appendingPathComponent(file)
            guard let rule = try Self.rule(in: url, root: root, kinds: kinds) else { continue }
            found[rule.id] = rule
        }
        let order = try Self.catalogueOrder(root.appendingPathComponent("spec/rules.md"), root: root)
        for id in order where found[id] == nil {
            throw Problem("spec/rules.md", "section 3 specifies `\(id)`, but no file of Sources/LifecycleLogRules/Rules declares its type (`struct \(Self.typeName(ofID: id)): BuiltInRule`)")
        }
        for id in found.keys.sorted() where !order.contains(id) {
            throw Problem("spec/rules.md", "rule `\(id)` (\(found[id]!.name).swift) has no section in section 3 (`### `\(id)` (severity)`): specify it there; its place there is its place in the catalogue")
        }
        rules = order.map { found[$0]! }
    }

    /// The case names of `enum <name>` in `file`: lines `case a` or `case a(…)` or `case a, b`.
    static func enumCases(named name: String, in file: URL, root: URL) throws -> [String] {
        let lines = try read(file, root: root)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("package enum \(name)") }) else {
            throw Problem(relative(file, root), "no `package enum \(name)`")
        }
        var cases: [String] = []
        for line in lines[(start + 1)...] {
            if line == "}" { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("    case "), !line.hasPrefix("     ") else { continue }
            // The names at parenthesis depth 0: `case a, b` is two cases, `case a(x: Int, y: Int)` one.
            var depth = 0, item = ""
            for c in trimmed.dropFirst("case ".count) + "," {
                if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
                guard c == ",", depth == 0 else { item.append(c); continue }
                let word = item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !word.isEmpty { cases.append(String(word)) }
                item = ""
            }
        }
        return cases
    }

    /// The `.case` items of the array literal after `prefix` (on one line or several, up to `]`)
    /// in `lines`, the text of `file` (read once by the caller).
    static func list(of prefix: String, in lines: [String], file: String, kinds: [String]) throws -> [String] {
        guard let index = lines.firstIndex(where: { $0.contains(prefix) }) else {
            throw Problem(file, "no `\(prefix.trimmingCharacters(in: .whitespaces))[...]`")
        }
        let items = try literal(after: prefix, lines: lines, at: index, file: file)
        for item in items {
            guard item.hasPrefix("."), kinds.contains(String(item.dropFirst())) else {
                throw Problem(file, line: index + 1, "`\(item)` is not a case of TransitionKind (write `.caseName`)")
            }
        }
        return items.map { String($0.dropFirst()) }
    }

    /// The comma-separated items of the array literal that starts after `prefix` on `lines[index]`.
    static func literal(after prefix: String, lines: [String], at index: Int, file: String) throws -> [String] {
        var text = String(lines[index][lines[index].range(of: prefix)!.upperBound...])
        var end = index
        while !text.contains("]") {
            end += 1
            guard end < lines.count else { throw Problem(file, line: index + 1, "the array literal is not closed with `]`") }
            text += lines[end]
        }
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else {
            throw Problem(file, line: index + 1, "expected an array literal `[…]` after `\(prefix.trimmingCharacters(in: .whitespaces))`")
        }
        return text[text.index(after: text.startIndex)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The rule `file` declares, or `nil` when it declares none (`struct X: BuiltInRule`).
    static func rule(in file: URL, root: URL, kinds: [String]) throws -> RuleType? {
        let lines = try read(file, root: root)
        let name = relative(file, root)
        let declarations = lines.enumerated().filter { $0.element.range(of: #"^(package |public )?struct \w+: BuiltInRule\b"#, options: .regularExpression) != nil }
        guard let declaration = declarations.first else { return nil }
        guard declarations.count == 1 else { throw Problem(name, line: declarations[1].offset + 1, "one rule per file") }
        let words = declaration.element.split(separator: " ")
        let type = String(words[words.firstIndex(of: "struct")! + 1].dropLast())  // "LostUpdate:" → LostUpdate
        guard file.lastPathComponent == "\(type).swift" else {
            throw Problem(name, line: declaration.offset + 1, "rule \(type) must be in a file of its own name, \(type).swift")
        }
        let hears = try list(of: "static let hears: [TransitionKind] = ", in: lines, file: name, kinds: kinds)
        guard !hears.isEmpty else { throw Problem(name, "\(type) hears no transition: list what it hears in `static let hears`") }
        guard let fixtureLine = lines.firstIndex(where: { $0.contains("static let exampleFixtures = ") }) else {
            throw Problem(name, "\(type) names no examples: `static let exampleFixtures = [\"rules/its-fixture\", \"rules/its-fixture-negative\"]` (in traces/)")
        }
        let fixtures = try literal(after: "static let exampleFixtures = ", lines: lines, at: fixtureLine, file: name).map { item -> String in
            guard item.count > 2, item.hasPrefix("\""), item.hasSuffix("\""), !item.dropFirst().dropLast().contains("\"") else {
                throw Problem(name, line: fixtureLine + 1, "`\(item)` is not a fixture's name as a string literal")
            }
            return String(item.dropFirst().dropLast())
        }
        return RuleType(name: type, id: kebab(type), property: type.prefix(1).lowercased() + type.dropFirst(), hears: hears, fixtures: fixtures)
    }

    /// The rule ids of spec/rules.md section 3, in order (`### `id` (severity)` headings).
    static func catalogueOrder(_ file: URL, root: URL) throws -> [String] {
        let lines = try read(file, root: root)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("## 3. ") }) else {
            throw Problem(relative(file, root), "no section `## 3. The rules`")
        }
        var ids: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("### `") else { continue }
            let rest = line.dropFirst("### `".count)
            guard let end = rest.firstIndex(of: "`") else { continue }
            ids.append(String(rest[..<end]))
        }
        return ids
    }

    /// `LostUpdate` → `lost-update`.
    static func kebab(_ type: String) -> String {
        var out = ""
        for (i, c) in type.enumerated() {
            if c.isUppercase && i > 0 { out += "-" }
            out += c.lowercased()
        }
        return out
    }

    /// `lost-update` → `LostUpdate`.
    static func typeName(ofID id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func read(_ file: URL, root: URL) throws -> [String] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { throw Problem(relative(file, root), "cannot be read") }
        return text.components(separatedBy: "\n")
    }

    static func relative(_ file: URL, _ root: URL) -> String {
        file.path.hasPrefix(root.path + "/") ? String(file.path.dropFirst(root.path.count + 1)) : file.path
    }
}
