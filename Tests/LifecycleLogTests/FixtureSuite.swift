import Foundation
import Testing
@testable import LifecycleLog

/// Every fixture in traces/ replays through the library exactly as its expected report says, one
/// test case per fixture, so that a failure names its fixture (issue 31: 5). The shell gate
/// `scripts/replay-fixtures` checks the same through the built command, for .jsonl and imported
/// .lmdb alike.
@Suite struct FixtureSuite {
    /// The fixtures, as paths under traces/: JSON Lines traces (not the exports kept beside some)
    /// and the frozen trace files.
    static let fixtures: [String] = {
        let root = "\(repositoryRoot)/traces"
        return (FileManager.default.subpaths(atPath: root) ?? [])
            .filter { ($0.hasSuffix(".jsonl") && !$0.hasSuffix(".export.jsonl")) || $0.hasSuffix(".lmdb") }.sorted()
    }()

    @Test func thereAreFixturesOfEveryKind() {
        #expect(Self.fixtures.count > 100)
        for folder in ["rules/", "readings/", "explore/", "examples/", "stored/"] {
            #expect(Self.fixtures.contains { $0.hasPrefix(folder) }, "no fixture in traces/\(folder)")
        }
    }

    @Test(arguments: fixtures)
    func matchesItsExpectedReport(_ fixture: String) throws {
        let root = "\(repositoryRoot)/traces"
        let base = fixture.hasSuffix(".lmdb") ? fixture.dropLast(".lmdb".count) : fixture.dropLast(".jsonl".count)
        let expectedPath = "\(root)/\(base).expected.json"
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        // Replayed with the options the expected report records, as `--expect` does.
        let options = try ExpectedReport.options(in: expected, path: expectedPath)
        var configuration = try options.rulesPath(expectedAt: expectedPath).map {
            try RuleConfiguration(json: String(contentsOfFile: $0, encoding: .utf8), path: $0)
        } ?? RuleConfiguration()
        configuration.explore = options.explore
        #expect(options.explore == fixture.hasPrefix("explore/"), "the fixtures of traces/explore/, and only they, record --explore")
        let report = try Replayer.replay("\(root)/\(fixture)", configuration: configuration)
        let difference = try ExpectedReport.difference(report, expectedText: expected, expectedPath: expectedPath)
        #expect(difference == nil, "\(difference ?? "")")
    }
}
