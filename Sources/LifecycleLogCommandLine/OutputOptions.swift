import ArgumentParser
import LifecycleLog

/// The help lines a command gives `-o` and `--force` (what it writes, what it replaces).
protocol OutputOptionsHelp {
    static var outputHelp: String { get }
    static var forceHelp: String { get }
}

/// `-o FILE` and `--force`, for the commands that must write a file: checked by `OutputFile`'s
/// rules (never an input, the extension agreeing with what is written, another kind of file
/// replaced only with `--force`) in ``check(writes:command:inputs:suggestion:)``.
struct OutputOptions<Help: OutputOptionsHelp>: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.outputHelp))
    var output: String

    @Flag(help: ArgumentHelp(Help.forceHelp))
    var force = false

    /// Throws unless `-o` may be written by `command` (a file of `kind`), `inputs` being what it reads.
    func check(writes kind: OutputFile.Kind, command: String, inputs: [String], suggestion: [OutputFile.Kind: String] = [:]) throws {
        try OutputFile.check(output, writes: kind, command: command, inputs: inputs, force: force, suggestion: suggestion)
    }
}
