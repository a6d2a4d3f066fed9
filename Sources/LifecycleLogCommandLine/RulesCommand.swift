import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay rules`: the catalogue, as the rules describe themselves.
    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "List the rule catalogue: each rule's id, default severity, summary and fix.",
            discussion: """
                The app rules of a replay built with ReplayCommand.main(customRules:) are listed after the \
                catalogue's. With --markdown, prints the table README.md (readme) or spec/rules.md section 2 \
                (spec) holds, generated from the same descriptions.

                Example:
                  replay rules
                  replay rules --markdown readme
                """)

        enum Table: String, ExpressibleByArgument, CaseIterable {
            case readme, spec
        }

        @Option(help: "Print a Markdown table instead: readme or spec.")
        var markdown: Table?

        func run() throws {
            switch markdown {
            case .readme: Output.standardOutput.write(RuleCatalogue.readmeTable())
            case .spec: Output.standardOutput.write(RuleCatalogue.specTable())
            case nil:
                var out = ""
                for d in RuleCatalogue.descriptions {
                    out += "\(d.rule.rawValue) (\(d.defaultSeverity.rawValue)\(d.whatIf ? ", with --explore" : "")): \(d.summary)\n  fix: \(d.fix)\n"
                }
                for rule in AppRules.current {
                    out += "\(rule.id) (\(rule.severity.rawValue), app rule)\n"
                }
                Output.standardOutput.write(out)
            }
        }
    }
}
