import ArgumentParser
import LifecycleLog
internal import LifecycleLogPlatform

extension Replay {
    /// `replay minimize TRACE --rule R [--seq N] -o fixture.jsonl`
    struct Minimize: ParsableCommand, RuleOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "minimize",
            abstract: "Shrink a recorded session to a small fixture that still gives one finding.",
            discussion: """
                Delta debugging over the trace, every candidate replayed in process: it cuts the end \
                and the beginning, then removes whole processes other than the finding's (a widget's or \
                an extension's events, its launches with them), whole runs, whole windows (an open with \
                all of its window's events) and single events while RULE still fires (at the event that \
                was seq N, with --seq). Launches go only with their whole run or process, so the result \
                is a valid trace; seqs are renumbered and t is kept. Writes the fixture and, beside it, its expected \
                report (FIXTURE.expected.json, as --update-expected writes it), which records the options \
                the fixture replays with: --explore for kill-exposure, and the --rules file (as a path from \
                the expected report's folder), so that --expect replays it the same way.

                Example:
                  replay minimize session.lmdb --rule lost-update --seq 48123 \\
                      -o traces/lost-update-48123.jsonl
                  replay traces/lost-update-48123.jsonl \\
                      --expect traces/lost-update-48123.expected.json
                """)

        @Argument(help: "The trace (.lmdb or .jsonl).")
        var trace: String

        @Option(help: "The rule whose finding to keep, such as lost-update.")
        var rule: String

        @Option(help: "The seq of the finding to keep (default: any finding of the rule).")
        var seq: UInt64?

        @Option(name: .shortAndLong, help: "The fixture to write (.jsonl); its expected report goes beside it.")
        var output: String

        @OptionGroup var ruleOptions: RuleOptions<Minimize>
        static let rulesHelp = "A rules file, as for replay TRACE --rules."

        @Flag(help: "Replace existing files of another kind at -o and beside it.")
        var force = false

        /// The rule `--rule` names: a catalogue id, or an app rule's (``ReplayCommand/main(customRules:)``).
        static func rule(named id: String) -> Rule? {
            Rule(rawValue: id) ?? (AppRules.current.contains { $0.id == id } ? .custom(id) : nil)
        }

        func validate() throws {
            guard Self.rule(named: rule) != nil else {
                let known = Rule.allCases.map(\.rawValue) + AppRules.current.map(\.id)
                throw ValidationError("unknown rule \"\(rule)\"; the rules are: \(known.joined(separator: ", "))")
            }
            guard output.hasSuffix(".jsonl"), output.count > ".jsonl".count else {
                throw ValidationError("-o must name a .jsonl file (its expected report is written beside it as .expected.json), for example -o lost-update.jsonl")
            }
        }

        func run() throws {
            let rule = Self.rule(named: rule)!  // `!`: validate() checked it
            let expectedPath = String(output.dropLast(".jsonl".count)) + ".expected.json"
            let inputs = [trace] + ruleOptions.files
            try OutputFile.check(output, writes: .jsonLines, command: "replay minimize", inputs: inputs, force: force)
            try OutputFile.check(expectedPath, writes: .json, command: "replay minimize", inputs: inputs, force: force)
            let configuration = try ruleOptions.configuration()
            let started = ContinuousClock.now
            warnAboutTornRecords([trace])
            let events = try TraceMinimizer.load(trace)
            let result = try TraceMinimizer.minimize(events, rule: rule, seq: seq, configuration: configuration,
                                                     customRules: AppRules.current)
            let elapsed = ContinuousClock.now - started
            let fixture = try Output.to(path: output)
            let expected: Output
            do { expected = try Output.to(path: expectedPath) } catch { fixture.discard(); throw error }
            // The expected report records how the fixture replays to it, so that `--expect` replays it so
            // (issue 30: 7): with --explore for a what-if rule, with the rules file used here.
            let explore = rule == .killExposure || configuration.explore
            let options = ExpectedReport.Options(explore: explore, rules: ruleOptions.rules.map { FilePaths.relative(from: FilePaths.folder(of: expectedPath), to: $0) })
            fixture.write(result.jsonLines(source: trace, explore: explore))
            expected.write(result.expectedReport(fixture: output, options: options))
            // Both files written and synced under their temporary names before either is renamed:
            // on a full disk neither replaces what was there.
            do {
                try fixture.finish()
                try expected.finish()
            } catch {
                fixture.discard()
                expected.discard()
                throw error
            }
            do { try fixture.place() } catch { expected.discard(); throw error }
            do { try expected.place() } catch { unlink(output); throw error }  // both files or neither
            let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            let original = result.originalSeqs[Int(result.finding.seq) - 1]
            Output.standardError.write("""
                minimized \(trace): \(result.originalCount) → \(plural(result.events.count, "event")) (\(plural(result.runs, "run"))), \
                \(rule.rawValue) at seq \(result.finding.seq) (seq \(original) of the original); \(plural(result.candidates, "candidate")) replayed in \(ms) ms
                wrote \(output) and \(expectedPath)

                """)
        }
    }
}
