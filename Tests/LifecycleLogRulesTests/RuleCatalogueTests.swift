import Foundation
import XCTest
@testable import LifecycleLogRules

/// The catalogue describes itself (issue 20.2): every rule's examples fire and stay quiet as its
/// description says, and README.md's and spec/rules.md's tables are the ones generated from the
/// descriptions.
final class RuleCatalogueTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func testEveryRulesExamplesFireAndStayQuietAsItsDescriptionSays() throws {
        for d in RuleCatalogue.descriptions {
            var configuration = RuleConfiguration()
            configuration.explore = d.whatIf
            XCTAssertFalse(d.fires.isEmpty, "\(d.rule.rawValue) has no example that fires")
            XCTAssertFalse(d.quiet.isEmpty, "\(d.rule.rawValue) has no example that stays quiet")
            for (i, example) in d.fires.enumerated() {
                let rules = try Replayer.replay(events: events(example + "\n"), configuration: configuration).findings.map(\.rule)
                XCTAssertTrue(rules.contains(d.rule), "\(d.rule.rawValue): example \(i + 1) that must fire gave \(rules.map(\.rawValue))")
                let severities = try Replayer.replay(events: events(example + "\n"), configuration: configuration).findings
                    .filter { $0.rule == d.rule }.map(\.severity)
                XCTAssertEqual(Set(severities), [d.defaultSeverity], "\(d.rule.rawValue): its findings come at its default severity")
            }
            for (i, example) in d.quiet.enumerated() {
                let rules = try Replayer.replay(events: events(example + "\n"), configuration: configuration).findings.map(\.rule)
                XCTAssertFalse(rules.contains(d.rule), "\(d.rule.rawValue): example \(i + 1) that must stay quiet fired")
            }
        }
    }

    /// The generator reads each rule's `hears` as written; the routing it writes must be what the
    /// compiler makes of the same declarations, and each rule's id its type's name in kebab case.
    func testTheGeneratedRoutingIsWhatEachRuleDeclares() {
        let generated = RuleCatalogue.generatedHearing, declared = RuleCatalogue.declaredHearing
        XCTAssertEqual(generated.map(\.rule), declared.map(\.rule), "the generator's ids are the rules' own (Rule.x = Rule(catalogue: \"type-name\"))")
        for (g, d) in zip(generated, declared) {
            XCTAssertEqual(g.hears, d.hears, "\(g.rule): the generated routing differs from its `hears`; run `swift run generate-catalogue`")
        }
        XCTAssertEqual(generated.map(\.rule), Rule.allCases.map(\.rawValue))
    }

    func testTheCatalogueIsListedOnceAndMatchesTheSpecsRules() throws {
        XCTAssertEqual(Rule.allCases, RuleCatalogue.descriptions.map(\.rule))
        XCTAssertEqual(Set(Rule.allCases.map(\.rawValue)).count, Rule.allCases.count, "ids are unique")
        for rule in Rule.allCases {
            XCTAssertEqual(Rule(rawValue: rule.rawValue), rule)
            XCTAssertEqual(rule.catalogueDescription?.rule, rule)
            XCTAssertNotNil(rule.fix)
            XCTAssertEqual(rule.defaultSeverity, rule.catalogueDescription?.defaultSeverity, "the generated severity is the description's")
        }
        XCTAssertNil(Rule.custom("mine").catalogueDescription)
        // Every rule spec/rules.md section 3 describes (`### \`id\``) is in the catalogue, and no other.
        let spec = try String(contentsOfFile: Self.root + "/spec/rules.md", encoding: .utf8)
        let headings = spec.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("### `") else { return nil }
            return line.dropFirst(5).split(separator: "`").first.map(String.init)
        }
        XCTAssertEqual(Set(headings), Set(Rule.allCases.map(\.rawValue)))
    }

    func testTheReadmeAndSpecTablesAreGeneratedFromTheDescriptions() throws {
        for (file, table, command) in [("README.md", RuleCatalogue.readmeTable(), "readme"), ("spec/rules.md", RuleCatalogue.specTable(), "spec")] {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            let begin = try XCTUnwrap(text.range(of: "<!-- rules:begin"), "\(file) has no <!-- rules:begin --> marker")
            let afterBegin = try XCTUnwrap(text[begin.upperBound...].firstIndex(of: "\n"))
            let end = try XCTUnwrap(text.range(of: "<!-- rules:end -->"))
            let committed = String(text[text.index(after: afterBegin)..<end.lowerBound])
            XCTAssertEqual(committed, table, "\(file)'s rule table is out of step with the rules' descriptions. To fix, replace it with the output of `replay rules --markdown \(command)`.")
        }
    }
}
