import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Invariants of the reducer on generated traces (many seeds, every event
/// kind, bugs of every sort), checked against each other rather than against
/// hard-coded results.
final class PropertyTests: XCTestCase {
    private func generated(_ seed: UInt64, events: Int = 600, windows: Int = 4) -> [LifecycleEvent] {
        var all: [LifecycleEvent] = []
        TraceGenerator.generate(.init(events: events, seed: seed, windows: windows, bugRate: 150)) { all.append($0) }
        return all
    }

    func testReplayingAPrefixGivesTheStateTheFullReplayHadAtThatSeq() {
        for seed in UInt64(1)...40 {
            let all = generated(seed)
            var full = LifecycleReducer()
            var states: [LifecycleState] = []
            for (i, e) in all.enumerated() {
                full.apply(seq: UInt64(i + 1), e)
                states.append(full.state)
            }
            var random = SplitMix64(seed: seed)
            for _ in 0..<5 {
                let cut = Int(random.next() % UInt64(all.count)) + 1
                var prefix = LifecycleReducer()
                for (i, e) in all.prefix(cut).enumerated() { prefix.apply(seq: UInt64(i + 1), e) }
                XCTAssertEqual(prefix.state, states[cut - 1], "seed \(seed), seq \(cut)")
            }
        }
    }

    func testFindingsNeverPointPastTheTraceAndAreSortedAndUnique() {
        for seed in UInt64(100)...160 {
            let all = generated(seed, windows: Int(seed % 5) + 1)
            var configuration = RuleConfiguration()
            configuration.explore = seed % 2 == 0
            var reducer = LifecycleReducer(configuration: configuration)
            for (i, e) in all.enumerated() { reducer.apply(seq: UInt64(i + 1), e) }
            reducer.finish()
            var previous: (UInt64, Rule)?
            for f in reducer.findings {
                XCTAssertTrue((1...UInt64(all.count)).contains(f.seq), "seed \(seed): \(f)")
                XCTAssertTrue(f.related.allSatisfy { $0 >= 1 && $0 <= UInt64(all.count) && $0 != f.seq }, "seed \(seed): \(f)")
                XCTAssertEqual(f.related, f.related.sorted())
                XCTAssertFalse(f.message.isEmpty)
                if let (seq, rule) = previous {
                    XCTAssertTrue(seq < f.seq || (seq == f.seq && rule < f.rule), "seed \(seed): not sorted or duplicate at \(f.seq)")
                }
                previous = (f.seq, f.rule)
            }
        }
    }

    func testImportExportRoundTripsAnyGeneratedTrace() throws {
        let folder = TemporaryFolder()
        for seed in UInt64(1)...8 {
            let all = generated(seed, events: 2000)
            let source = folder.write("g\(seed).jsonl", all.map(\.jsonLine).joined(separator: "\n"))
            try TraceInterchange.importJSONLines(from: source, to: folder.file("g\(seed).lmdb"))
            var back: [LifecycleEvent] = []
            try Trace(path: folder.file("g\(seed).lmdb")).forEachEvent { _, e in back.append(e) }
            XCTAssertEqual(back, all, "seed \(seed)")
        }
    }

    func testTheSameSeedGivesTheSameTraceAndADifferentSeedAnother() {
        XCTAssertEqual(generated(77), generated(77))
        XCTAssertNotEqual(generated(77), generated(78))
        // The generator exercises every event kind and every rule but the what-if one.
        var kinds: Set<String> = []
        var rules: Set<Rule> = []
        for seed in UInt64(1)...20 {
            let all = generated(seed, events: 3000)
            all.forEach { kinds.insert($0.name) }
            var reducer = LifecycleReducer()
            for (i, e) in all.enumerated() { reducer.apply(seq: UInt64(i + 1), e) }
            reducer.finish()
            reducer.findings.forEach { rules.insert($0.rule) }
        }
        XCTAssertTrue(kinds.isSuperset(of: ["launch", "terminate", "open", "dismiss", "phase", "delegate", "write", "read", "save", "activity", "mark"]))
        XCTAssertTrue(rules.isSuperset(of: [.missedBackgroundSave, .unsavedDismiss, .unsavedAtExit, .lostUpdate, .duplicateWindow,
                                            .undeclaredScene, .unknownWindow, .eventBeforeLaunch, .phaseSkip, .uncleanExit,
                                            .activityInBackground, .appPhaseMismatch, .unknownEvent]), "\(rules)")
    }

    func testFindingsStreamedEventByEventAreTheFindingsOfTheWholeReplay() {
        for seed in UInt64(200)...230 {
            let all = generated(seed, events: 1500)
            var configuration = RuleConfiguration()
            configuration.explore = seed % 2 == 1
            var whole = LifecycleReducer(configuration: configuration)
            var streaming = LifecycleReducer(configuration: configuration)
            var streamed: [Finding] = []
            for (i, e) in all.enumerated() {
                whole.apply(seq: UInt64(i + 1), e)
                streaming.apply(seq: UInt64(i + 1), e)
                streamed += streaming.takeSettledFindings()
                // A finding handed out is final: nothing later is anchored before it.
                if let last = streamed.last { XCTAssertLessThanOrEqual(last.seq, UInt64(i + 1)) }
            }
            whole.finish()
            streaming.finish()
            streamed += streaming.takeSettledFindings()
            XCTAssertEqual(streamed, whole.findings, "seed \(seed)")
        }
    }
}
