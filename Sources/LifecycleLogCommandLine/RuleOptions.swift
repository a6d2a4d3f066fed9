import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials  // String(contentsOfFile:), without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog

/// The help line a command gives `--rules` (each says it in its own words: `replay --help` explains
/// the file, the others point there).
protocol RuleOptionsHelp {
    static var rulesHelp: String { get }
}

/// `--rules FILE`, for every command that replays: a JSON file that switches rules off, re-grades
/// them or sets thresholds (`RuleConfiguration`), read by ``loadRuleConfiguration(_:)``.
struct RuleOptions<Help: RuleOptionsHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Help.rulesHelp))
    var rules: String?

    /// The file as an input that no output may replace: none without `--rules`.
    var files: [String] { rules.map { [$0] } ?? [] }

    /// The rule configuration the file gives (the catalogue's defaults without one).
    func configuration() throws -> RuleConfiguration {
        try loadRuleConfiguration(rules)
    }
}

/// The rule configuration of a rules file, given with `--rules` or recorded in an expected report
/// (the catalogue's defaults without one); its rules are the catalogue's and the app's own.
func loadRuleConfiguration(_ path: String?) throws -> RuleConfiguration {
    guard let path else { return RuleConfiguration() }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw LifecycleLogError(.io, "cannot read the rules file; check the path", path: path)
    }
    return try RuleConfiguration(json: text, path: path, customRules: AppRules.current)
}
