import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay generate -o TRACE --events N [--seed S] [--windows K] [--bug-rate R] [--format-version 1|2]`
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Generate a realistic synthetic trace for benchmarks, soak tests and demos.",
            discussion: """
                Many runs, multi-window sessions, every event kind and a share of each bug. \
                The simulated app mostly saves on time and reads before it writes; --bug-rate \
                says how often, per thousand chances, it gets a habit wrong (default 5: about \
                one finding per 500 events; 300 packs findings densely for tests). \
                The same seed gives the same trace. The output is a trace file, or JSON Lines \
                when its name ends in .jsonl.

                --format-version 2 (the default) writes a version 2 trace: the app with its \
                widget and share extension (App Group keys), documents, asynchronous saves, \
                kills of every reason, prewarmed, background, debugger and XCUITest launches, \
                menu-bar apps and immersive spaces. --format-version 1 writes the version 1 \
                traces of earlier releases, the same trace for the same seed (the benchmarks').

                Example:
                  replay generate -o big.lmdb --events 1000000 --seed 42
                  replay generate -o v1.lmdb --events 200000 --format-version 1
                """)

        @Option(name: .shortAndLong, help: "The trace file (.lmdb) or JSON Lines file (.jsonl) to write.")
        var output: String

        @Option(help: "How many events to generate.")
        var events: Int

        @Option(help: "The random seed.")
        var seed: UInt64 = 1

        @Option(help: "At most this many windows open at once.")
        var windows: Int = 4

        @Flag(help: "Replace an existing -o file even when it is not a trace of the kind written.")
        var force = false

        @Option(name: .customLong("bug-rate"), help: "How often the app gets a habit wrong, per thousand chances (0 to 1000).")
        var bugRate: Int = 5

        @Option(name: .customLong("format-version"), help: "The trace format version to write: 2 (the default) or 1 (the traces of earlier releases).")
        var formatVersion: Int = 2

        func validate() throws {
            if !(1...2).contains(formatVersion) { throw ValidationError("--format-version must be 1 or 2, for example --format-version 2") }
            if events < 0 { throw ValidationError("--events must be 0 or more, for example --events 1000000") }
            if windows < 1 { throw ValidationError("--windows must be at least 1") }
            if !(0...1000).contains(bugRate) { throw ValidationError("--bug-rate must be from 0 to 1000 (per thousand chances), for example --bug-rate 5") }
        }

        func run() throws {
            let options = TraceGenerator.Options(events: events, seed: seed, windows: windows, bugRate: bugRate, formatVersion: formatVersion)
            let kind = output == "-" ? .jsonLines : OutputFile.Kind.chosen(by: output)
            try OutputFile.check(output, writes: kind, command: "replay generate", inputs: [], force: force, suggestion: [
                .html: "replay generate -o T.lmdb … then replay report T.lmdb -o OUT.html",
                .json: "replay generate -o T.lmdb … then replay T.lmdb --format json > OUT.json",
            ])
            if kind == .jsonLines {
                let out = try Output.to(path: output)
                out.write("{\"format\":\"lifecycle-trace\",\"version\":\(formatVersion)}\n")
                TraceGenerator.generate(options) { out.write($0.jsonLine + "\n") }
                try out.commit()
            } else {
                try Terminal.withProgress("generating \(output)", total: UInt64(events)) { progress in
                    try TraceInterchange.generate(options, to: output, progress: progress.update)
                }
            }
            Output.standardError.write("generated \(plural(events, "event")) into \(output)\n")
        }
    }
}
