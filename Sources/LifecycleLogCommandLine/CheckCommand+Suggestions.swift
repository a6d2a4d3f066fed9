import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials  // FileManager, without loading all of Foundation and ICU at start-up
#else
import Foundation
#endif
import LifecycleLog
internal import LifecycleLogPlatform

/// "Did you mean": the subcommand closest to a mistyped word.
extension Replay.Check {
    /// A subcommand whose name is within two edits of `word`, for "did you mean".
    static func closestCommand(to word: String) -> String? {
        let names = Replay.configuration.subcommands.compactMap { $0.configuration.commandName ?? String(describing: $0).lowercased() }
        return names.map { ($0, editDistance(Array(word), Array($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
