import Foundation
import XCTest
import LifecycleLogRules

// What the test targets share (LifecycleLogRulesTests and LifecycleLogTests): JSON Lines text in,
// findings out, through the reducer alone. No LMDB, no `replay` binary, no `Process`: the app-only
// package (Package.swift's `appOnly`) keeps this target, so it builds for the iOS simulator too.
// `package`, not `public`: only this package's test targets use it, and it is no product.

/// The repository's root folder (for `traces/`, `spec/`, README.md), from this file's path: the
/// simulator runs on the machine that holds the checkout, so the path reads there too.
package let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// Parses JSON Lines text into events (header and comments skipped).
package func events(_ jsonl: String, file: StaticString = #filePath, line: UInt = #line) throws -> [LifecycleEvent] {
    var decoder = JSONLinesDecoder(path: nil)
    var result: [LifecycleEvent] = []
    for (i, text) in jsonl.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var bytes = Array(text.utf8)
        let event = try bytes.withUnsafeMutableBufferPointer { try decoder.decode(line: UnsafeBufferPointer($0), number: i + 1) }
        if let event { result.append(event) }
    }
    return result
}

/// Replays JSON Lines text through the reducer.
package func replayFindings(_ jsonl: String, explore: Bool = false) throws -> [Finding] {
    var configuration = RuleConfiguration()
    configuration.explore = explore
    var reducer = LifecycleReducer(configuration: configuration)
    for (i, event) in try events(jsonl).enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
    reducer.finish()
    return reducer.findings
}

/// Asserts that replaying `jsonl` finds exactly `expected` (rule and seq), and
/// on a mismatch fails with a diff in the style of TCA's TestStore.
package func assertFindings(
    _ jsonl: String, _ expected: [(Rule, UInt64)], explore: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        let found = try replayFindings(jsonl, explore: explore)
        let actual = found.map { "\($0.seq) \($0.rule.rawValue)" }
        let wanted = expected.map { "\($0.1) \($0.0.rawValue)" }.sorted { a, b in
            let (sa, sb) = (UInt64(a.split(separator: " ")[0])!, UInt64(b.split(separator: " ")[0])!)
            return sa != sb ? sa < sb : a < b
        }
        guard actual != wanted else { return }
        var message = "The findings differ (expected −, actual +):\n"
        let diff = actual.difference(from: wanted)
        for change in diff {
            switch change {
            case .remove(_, let element, _): message += "  − seq \(element)\n"
            case .insert(_, let element, _):
                let detail = found.first { "\($0.seq) \($0.rule.rawValue)" == element }?.message ?? ""
                message += "  + seq \(element): \(detail)\n"
            }
        }
        message += "To fix, check the rule's definition in rules.md against the event at that seq."
        XCTFail(message, file: file, line: line)
    } catch {
        XCTFail("replay threw \(error)", file: file, line: line)
    }
}

/// A launch line for tests.
package func launch(_ platform: String = "iOS", t: Int = 0, extra: String = "", scenes: String = #"[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]"#) -> String {
    #"{"event":"launch","t":\#(t),"platform":"\#(platform)","scenes":\#(scenes)\#(extra)}"#
}
