import Foundation
import XCTest

/// `generate-catalogue` (issue 31: 2) finds a rule by itself: a new rule is its own file, its
/// section in spec/rules.md and its fixtures, and the generator routes it, lists it and copies its
/// examples. It runs here on a copy of the package's sources, with a throwaway rule added.
final class CatalogueGeneratorTests: XCTestCase {
    private var generator: String { URL(fileURLWithPath: replayExecutable).deletingLastPathComponent().appendingPathComponent("generate-catalogue").path }

    /// A copy of what the generator reads: the transitions, the rules, the spec and the fixtures.
    private func copyOfTheSources() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: copy) }
        let fm = FileManager.default
        let source = URL(fileURLWithPath: repositoryRoot)
        for folder in ["Sources/LifecycleLogRules/Model", "Sources/LifecycleLogRules/Rules", "spec", "traces/rules", "traces/explore"] {
            try fm.createDirectory(at: copy.appendingPathComponent(folder).deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: source.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
        }
        return copy
    }

    private func generate(_ root: URL, check: Bool = false) throws -> ProcessResult {
        try runProgram(generator, (check ? ["--check"] : []) + ["--root", root.path], timeout: 120)
    }

    private func generated(_ root: URL, _ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Sources/LifecycleLogRules/Rules/generated/\(file)"), encoding: .utf8)
    }

    func testTheCommittedCatalogueIsWhatTheGeneratorWritesAndACheckSeesAChange() throws {
        let root = try copyOfTheSources()
        XCTAssertEqual(try generate(root, check: true).status, 0)
        let routing = root.appendingPathComponent("Sources/LifecycleLogRules/Rules/generated/CatalogueRules.swift")
        try (try String(contentsOf: routing, encoding: .utf8) + "// edited\n").write(to: routing, atomically: true, encoding: .utf8)
        let stale = try generate(root, check: true)
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stderr.contains("out of date: Sources/LifecycleLogRules/Rules/generated/CatalogueRules.swift"), stale.stderr)
        XCTAssertEqual(try generate(root).status, 0)
        XCTAssertEqual(try generated(root, "CatalogueRules.swift"),
                       try String(contentsOfFile: repositoryRoot + "/Sources/LifecycleLogRules/Rules/generated/CatalogueRules.swift", encoding: .utf8))
    }

    func testANewRuleIsFoundRoutedListedAndGivenItsFixturesAsExamples() throws {
        let root = try copyOfTheSources()
        let rule = """
            /// `save-twice`: a throwaway rule of this test.
            package struct SaveTwice: BuiltInRule {
                package static let hears: [TransitionKind] = [.keySaved,
                                                              .runEnded]
                package static let exampleFixtures = ["rules/save-twice", "rules/save-twice-negative"]
            }
            """
        try rule.write(to: root.appendingPathComponent("Sources/LifecycleLogRules/Rules/SaveTwice.swift"), atomically: true, encoding: .utf8)
        try "# fires\n{\"event\":\"launch\",\"t\":0,\"platform\":\"iOS\",\"scenes\":[]}\n{\"event\":\"save\",\"t\":1}\n"
            .write(to: root.appendingPathComponent("traces/rules/save-twice.jsonl"), atomically: true, encoding: .utf8)
        try "# quiet\n{\"event\":\"launch\",\"t\":0,\"platform\":\"iOS\",\"scenes\":[]}\n"
            .write(to: root.appendingPathComponent("traces/rules/save-twice-negative.jsonl"), atomically: true, encoding: .utf8)

        // Without its section in the spec, the generator says where to add it.
        let unspecified = try generate(root)
        XCTAssertEqual(unspecified.status, 2)
        XCTAssertTrue(unspecified.stderr.contains("rule `save-twice` (SaveTwice.swift) has no section in section 3"), unspecified.stderr)

        // Its section before `kill-exposure`'s puts it there in the catalogue.
        let specURL = root.appendingPathComponent("spec/rules.md")
        let spec = try String(contentsOf: specURL, encoding: .utf8)
        try spec.replacingOccurrences(of: "### `kill-exposure`", with: "### `save-twice` (warning)\n\nA throwaway rule.\n\n### `kill-exposure`")
            .write(to: specURL, atomically: true, encoding: .utf8)
        let result = try generate(root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "generate-catalogue: wrote 3 files for 21 rules\n")

        let routing = try generated(root, "CatalogueRules.swift")
        XCTAssertTrue(routing.contains("    var saveTwice: SaveTwice\n"))
        XCTAssertTrue(routing.contains("        saveTwice = SaveTwice(configuration: configuration)\n"))
        // keySaved was heard by no rule (told inline as nothing); now out of line, to this rule.
        XCTAssertTrue(routing.contains("        case .keySaved:\n            saveTwice.observe(transition, at: now, &model, &findings)\n"), routing)
        XCTAssertFalse(routing.contains("case .keySaved, .activityStarted"), routing)
        // A run's end: after the rules already hearing it, in catalogue order (before kill-exposure).
        XCTAssertTrue(routing.contains("            uncleanExit.observe(transition, at: now, &model, &findings)\n            slowLaunch.observe"), routing)
        XCTAssertTrue(routing.contains("            saveTwice.observe(transition, at: now, &model, &findings)\n            killExposure.observe"), routing)

        let catalogue = try generated(root, "RuleCatalogue.swift")
        XCTAssertTrue(catalogue.contains("        UnexpectedCallbackOrder.description,\n        SaveTwice.description,\n        KillExposure.description,\n"), catalogue)
        XCTAssertTrue(catalogue.contains("(\"save-twice\", [.keySaved, .runEnded]),"), catalogue)

        let examples = try generated(root, "RuleExamples.swift")
        XCTAssertTrue(examples.contains("""
            extension SaveTwice {
                /// Traces on which `save-twice` must fire: traces/rules/save-twice.jsonl.
                static let examplesThatFire: [String] = [
                    #\"\"\"
                    {"event":"launch","t":0,"platform":"iOS","scenes":[]}
                    {"event":"save","t":1}
                    \"\"\"#,
                ]
            """), examples)
    }

    func testADeclarationTheGeneratorCannotReadIsAnErrorNamingTheFileAndLine() throws {
        let root = try copyOfTheSources()
        let file = root.appendingPathComponent("Sources/LifecycleLogRules/Rules/PhaseSkip.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "package static let hears: [TransitionKind] = [.phaseChanged]",
                                      with: "package static let hears: [TransitionKind] = [.phaseChange]")
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try generate(root)
        XCTAssertEqual(result.status, 2)
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("static let hears") }! + 1
        XCTAssertEqual(result.stderr, "generate-catalogue: Sources/LifecycleLogRules/Rules/PhaseSkip.swift:\(line): `.phaseChange` is not a case of TransitionKind (write `.caseName`)\n")

        try text.replacingOccurrences(of: "\"rules/phase-skip-negative\"", with: "\"rules/phase-skip-missing\"")
            .write(to: file, atomically: true, encoding: .utf8)
        let missing = try generate(root)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("PhaseSkip.swift: its example fixture traces/rules/phase-skip-missing.jsonl cannot be read"), missing.stderr)
    }
}
