import ArgumentParser

/// The help line a command gives `--process` (what it does with the process it names).
protocol ProcessOptionsHelp {
    static var processHelp: String { get }
}

/// `--process NAME`: one process of a trace (trace format 2; `""` is the main app), for the
/// commands that look at one process's events (`dump`, `stats`, `replay --state`).
struct ProcessOptions<Help: ProcessOptionsHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Help.processHelp))
    var process: String?
}
