import XCTest
@testable import LifecycleLogRules

/// `SharedKeyVersions` and `SeqMultiset` against the obvious model: every writer takes a copy of
/// every key's version when it starts (what the reducer did before issue 28 made it linear).
final class SharedKeyVersionsTests: XCTestCase {
    private struct Writer {
        var start: UInt64
        var snapshot: [UInt64]
    }

    func testVersionsAtEachOpenWritersStartMatchACopyTakenAtTheStart() {
        for seed in UInt64(1)...16 {
            var random = SplitMix64(seed: seed)  // the generator's: a failure repeats
            var versions = SharedKeyVersions()
            var current: [UInt64] = []
            var writers: [Writer] = []
            var seq: UInt64 = 1
            for step in 0..<1_500 {
                seq += 1
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<5:
                    versions.appendKey()
                    current.append(0)
                case 5..<55 where !current.isEmpty:
                    // A write (up), or a dismiss or launch putting a key back to its saved version (down).
                    let key = Int.random(in: 0..<current.count, using: &random)
                    let version = Bool.random(using: &random) || current[key] == 0
                        ? current[key] + 1 : UInt64.random(in: 0..<current[key], using: &random)
                    versions.set(key, version, at: seq)
                    current[key] = version
                case 55..<70:
                    versions.writerStarted(at: seq)
                    writers.append(Writer(start: seq, snapshot: current))
                case 70..<82 where !writers.isEmpty:
                    // Mostly the oldest or the newest, as windows usually go; sometimes any.
                    let pick = Int.random(in: 0..<4, using: &random)
                    let at = pick == 0 ? 0 : pick == 1 ? writers.count - 1 : Int.random(in: 0..<writers.count, using: &random)
                    versions.writerEnded(startedAt: writers.remove(at: at).start)
                case 82 where Int.random(in: 0..<4, using: &random) == 0:
                    // A launch: every writer gone, keys back to saved at the launch's seq, the app starts there.
                    versions.allWritersEnded()
                    writers.removeAll()
                    for key in current.indices where current[key] > 0 && Bool.random(using: &random) {
                        current[key] -= 1
                        versions.set(key, current[key], at: seq)
                    }
                    versions.writerStarted(at: seq)
                    writers.append(Writer(start: seq, snapshot: current))
                default:
                    break
                }
                for writer in writers {
                    for key in current.indices {
                        let expected = key < writer.snapshot.count ? writer.snapshot[key] : 0
                        let got = versions.version(key, at: writer.start)
                        if got != expected {
                            XCTFail("seed \(seed), step \(step): key \(key) for the writer started at seq \(writer.start) is at \(got), was \(expected) then")
                            return
                        }
                    }
                }
                for key in current.indices where versions.current(key) != current[key] {
                    XCTFail("seed \(seed), step \(step): key \(key) is at \(versions.current(key)), should be \(current[key])")
                    return
                }
            }
        }
    }

    func testSeqMultisetKeepsEachSeqAsOftenAsInsertedAndAnswersRanges() {
        var random = SplitMix64(seed: 7)
        var set = SeqMultiset()
        var model: [UInt64] = []
        var seq: UInt64 = 0
        for step in 0..<20_000 {
            if Int.random(in: 0..<3, using: &random) > 0 || model.isEmpty {
                if Int.random(in: 0..<4, using: &random) > 0 { seq += 1 }  // sometimes the same seq again
                set.insert(seq)
                model.append(seq)
            } else {
                let pick = Int.random(in: 0..<3, using: &random)
                let at = pick == 0 ? 0 : pick == 1 ? model.count - 1 : Int.random(in: 0..<model.count, using: &random)
                set.remove(model.remove(at: at))
            }
            XCTAssertEqual(set.count, model.count, "step \(step)")
            XCTAssertEqual(set.lowest, model.min(), "step \(step)")
            let lower = UInt64.random(in: 0...seq + 1, using: &random)
            let upper = lower + UInt64.random(in: 0...8, using: &random)
            XCTAssertEqual(set.containsAny(from: lower, below: upper), model.contains { lower <= $0 && $0 < upper },
                           "step \(step): \(lower)..<\(upper)")
        }
        set.remove(seq + 100)  // not there: nothing
        XCTAssertEqual(set.count, model.count)
    }

    /// The list of keys with unsaved changes is compacted as it grows (saves in two stages leave
    /// saved keys in it): a compaction at the very write that makes a key unsaved must keep it.
    /// 18 writes saved in two stages, then a 19th left unsaved: the 19th note is the compacting one.
    func testAKeyMadeUnsavedAtTheListsCompactionIsStillUnsaved() throws {
        var lines = [#"{"format":"lifecycle-trace","version":2}"#,
                     #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
                     #"{"event":"open","t":1,"window":"w1","scene":"main"}"#,
                     #"{"event":"phase","t":2,"window":"w1","phase":"active"}"#]
        let write = #"{"event":"write","t":3,"window":"w1","key":"k","scope":"shared"}"#
        for _ in 0..<18 {
            lines += [write, #"{"event":"save","t":3,"stage":"begin"}"#, #"{"event":"save","t":3,"stage":"end"}"#]
        }
        lines += [write, #"{"event":"phase","t":5,"window":"w1","phase":"inactive"}"#,
                  #"{"event":"phase","t":6,"window":"w1","phase":"background"}"#, #"{"event":"terminate","t":9000}"#]
        var reducer = LifecycleReducer()
        for (i, event) in try events(lines.joined(separator: "\n") + "\n").enumerated() { reducer.apply(seq: UInt64(i + 1), event) }
        reducer.finish()
        let missed = reducer.findings.filter { $0.rule == .missedBackgroundSave }
        XCTAssertEqual(missed.map(\.seq), [60], "the 19th write (seq 58) left \"k\" unsaved; it went to the background at seq 60 with no save after")
    }
}
