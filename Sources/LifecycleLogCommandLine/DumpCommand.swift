import ArgumentParser
import LifecycleLog

extension Replay {
    /// `replay dump TRACE [--from SEQ] [--to SEQ] [--process P] [--window W] [--kind K]`
    struct Dump: ParsableCommand, ProcessOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract: "List a trace's events, aligned, filtered by seq range, process, window and kind.",
            discussion: """
                A window of another process than the main app is listed with its process: w1 (com.example.notes.share).

                Example:
                  replay dump session.lmdb --from 4800 --to 4820
                  replay dump session.lmdb --window w2 --kind write --kind save
                  replay dump session.lmdb --process com.example.notes.share --window w1
                """)

        @Argument(help: "The trace (.lmdb or .jsonl).")
        var trace: String

        @Option(help: "The first seq to list.")
        var from: UInt64 = 1

        @Option(help: "The last seq to list.")
        var to: UInt64?

        @OptionGroup var processOptions: ProcessOptions<Dump>
        static let processHelp = "Only events of this process (trace format 2; \"\" is the main app)."

        @Option(help: "Only events that name this window (of every process, each labelled, unless --process says which).")
        var window: String?

        @Option(help: "Only events of this kind (repeat for several).")
        var kind: [String] = []

        func validate() throws {
            if from == 0 { throw ValidationError("seqs start at 1: use --from 1 or more") }
            if let to, to < from { throw ValidationError("--to (\(to)) is before --from (\(from))") }
        }

        func run() throws {
            let filter = EventListing.Filter(from: from, to: to ?? .max, process: processOptions.process, window: window, kinds: Set(kind))
            // Gathered (spilling to disk) and printed only when the range was read whole:
            // a trace damaged inside the range prints its error, not half a listing.
            warnAboutTornRecords([trace])
            let listing = SpillBuffer()
            let listed = try EventListing.list(trace, filter: filter) { try listing.append($0 + "\n") }
            // A --kind that is no kind of event and matched none is a typo (`wrte`), not an empty
            // listing; a kind this version does not know but the trace holds is listed.
            for name in kind.sorted() where !EventListing.knownKinds.contains(name) && !listed.contains(name) {
                let close = EventListing.knownKinds.filter { Check.editDistance(Array(name), Array($0)) <= 2 }
                throw LifecycleLogError(.invalidArgument,
                    "no event of kind \"\(VisibleText.escape(name))\" in the trace\(close.isEmpty ? "" : " (did you mean \(close.joined(separator: " or "))?)"); "
                    + "the kinds are: \(EventListing.knownKinds.joined(separator: ", ")) (and any unknown kind the trace holds)",
                    path: trace)
            }
            try listing.drain(into: Output.standardOutput)
        }
    }
}
