import XCTest
@testable import LifecycleLogRules

/// The small list helpers the model and the text report use in place of the standard library's
/// general ones (`Array+Clearing`, `Array+SmallSort`, `Array+Decimal`): the same results on random
/// input, at every size either side of where they switch methods.
final class ModelListTests: XCTestCase {
    func testSortSmallSortsAsSortedDoesAtEverySize() {
        var random = SplitMix64(seed: 31)
        for size in 0..<40 {
            for round in 0..<50 {
                let range = UInt64([3, 100][round % 2])  // with and without repeated elements
                var list = (0..<size).map { _ in Int(random.next() % range) }
                let expected = list.sorted()
                list.sortSmall()
                XCTAssertEqual(list, expected, "size \(size), round \(round)")
            }
        }
    }

    func testTruncatingAndEmptyingKeepTheFirstElementsAndTheStorage() {
        var random = SplitMix64(seed: 37)
        for size in 0..<20 {
            for newCount in 0...(size + 2) {
                let original = (0..<size).map { _ in random.next() }
                var list = original
                list.reserveCapacity(32)
                let capacity = list.capacity
                list.truncate(to: newCount)
                XCTAssertEqual(list, Array(original.prefix(newCount)), "size \(size) to \(newCount)")
                XCTAssertEqual(list.capacity, capacity, "size \(size) to \(newCount): storage kept")
            }
            var list = (0..<size).map { _ in random.next() }
            list.reserveCapacity(32)
            let capacity = list.capacity
            list.removeAllKeepingStorage()
            XCTAssertTrue(list.isEmpty)
            XCTAssertEqual(list.capacity, capacity, "size \(size): storage kept")
        }
    }

    func testDecimalDigitsAreWhatStringWrites() {
        var random = SplitMix64(seed: 41)
        var unsigned: [UInt64] = [0, 1, 9, 10, 99, 100, 999_999_999_999_999_999, 1_000_000_000_000_000_000, 9_999_999_999_999_999_999,
                                  10_000_000_000_000_000_000, UInt64.max, UInt64.max - 1]
        for _ in 0..<2_000 { unsigned.append(random.next() >> (random.next() % 64)) }
        for n in unsigned {
            var bytes: [UInt8] = [0x2A]  // appended after what is there
            bytes.appendDecimal(n)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "*" + String(n))
        }
        for n in [0, 7, -7, 42, -42, Int.max, Int.min, Int.min + 1] + unsigned.prefix(500).map({ Int(truncatingIfNeeded: $0) }) {
            var bytes: [UInt8] = []
            bytes.appendDecimal(n)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(n))
        }
    }

    /// The text line written as bytes is the line its public parts make: the location, the
    /// severity, the rule, the escaped message and the seq note.
    func testATextLineWrittenAsBytesIsTheLineItsPartsMake() {
        var random = SplitMix64(seed: 43)
        let messages = ["plain", "tab\tand newline\n", "bidi \u{202E}override", "émoji 🙂 ünïcode", "", String(repeating: "long ", count: 80)]
        let traces = ["trace.lmdb", "dir/with space/t.jsonl", "ctl\u{1B}[31m.lmdb"]
        for round in 0..<400 {
            let related = (0..<Int(random.next() % 4)).map { _ in random.next() % 100_000 }
            let line: Int? = random.next() % 2 == 0 ? nil : Int(random.next() % 5_000)
            let finding = Finding(rule: random.next() % 2 == 0 ? .phaseSkip : .lostUpdate, severity: random.next() % 2 == 0 ? .error : .warning,
                                  seq: random.next() >> (random.next() % 64), related: related,
                                  message: messages[Int(random.next() % UInt64(messages.count))], line: line)
            let trace = traces[round % traces.count]
            let expected = "\(finding.location(in: trace)) \(finding.severity.rawValue): [\(finding.rule.rawValue)] \(VisibleText.escape(finding.message))\(finding.seqNote)\n"
            XCTAssertEqual(ReplayReport.textLine(finding, trace: trace), expected, "round \(round)")
        }
        // The parts themselves, as the text report has always written them.
        let byLine = Finding(rule: .lostUpdate, severity: .error, seq: 13, related: [6, 7], message: "m", line: 18)
        XCTAssertEqual(byLine.location(in: "t.jsonl"), "t.jsonl:18:")
        XCTAssertEqual(byLine.seqNote, " (seq 13; related: 6, 7)")
        XCTAssertEqual(ReplayReport.textLine(byLine, trace: "t.jsonl"), "t.jsonl:18: error: [lost-update] m (seq 13; related: 6, 7)\n")
        let bySeq = Finding(rule: .phaseSkip, severity: .warning, seq: 13, related: [6], message: "m")
        XCTAssertEqual(bySeq.location(in: "t\u{1B}.lmdb"), "t\\u{1B}.lmdb: seq 13:")
        XCTAssertEqual(bySeq.seqNote, " (related: 6)")
        XCTAssertEqual(Finding(rule: .phaseSkip, severity: .warning, seq: 13, related: [], message: "m").seqNote, "")
        XCTAssertEqual(Finding(rule: .phaseSkip, severity: .warning, seq: 13, related: [], message: "m", line: 2).seqNote, " (seq 13)")
    }
}
