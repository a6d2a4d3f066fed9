import Foundation
import XCTest
@testable import LifecycleLog

/// `replay merge` places a spooled batch the collector's trace lacks between its sink's neighbours
/// in the trace (spec/collector-protocol.md, "Delivery"). Since issue 21 the reference sink resumes
/// and the collector gets such a batch itself, and since issue 28 a collector refuses deliveries from
/// a connection that did not name their client, so such a trace comes only from an older collector
/// and an older sink: deliveries 1–10 from one connection, then, after a gap in time, 21–30 from
/// another, each moved by its connection's offset; 11–20 are only in the spool. The trace is
/// imported as that collector stored it.
final class MergePlacementTests: XCTestCase {
    private func event(_ n: Int, t: Int, offset: Int) -> String {
        #"{"event":"mark","t":\#(t + offset),"process":"com.example.app","label":"m:\#(n)","delivery":{"client":"old-sink","n":\#(n),"t":\#(t)}}"#
    }

    func testASpooledBatchTheTraceLacksIsPlacedBetweenItsSinksNeighbours() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let stored = [#"{"format":"lifecycle-trace","version":2}"#] + (1...10).map { event($0, t: $0 * 10, offset: 1000) }
            + (21...30).map { event($0, t: $0 * 10, offset: 1300) }
        try TraceInterchange.importJSONLines(from: folder.write("c.jsonl", stored.joined(separator: "\n") + "\n"), to: path)

        let spool = folder.file("spool.jsonl")
        let sink = SpoolSink(path: spool)
        try sink.write((11...20).map { n in
            LifecycleEvent(t: Double(n * 10), .mark(label: "m:\(n)"), extraFields: [JSONMember("delivery", .object([
                JSONMember("client", .string("old-sink")), JSONMember("n", .number(String(n))), JSONMember("t", .number(String(n * 10))),
            ]))])
        })
        sink.close()
        let merged = folder.file("merged.lmdb")
        let outcome = try replay("merge", path, spool, "-o", merged)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("merged 20 events from the trace and 10 from the spools"), outcome.stderr)
        var labels: [String] = []
        var times: [Double] = []
        try Trace(path: merged).forEachEvent { _, e in
            if case .mark(let label) = e.kind { labels.append(label) }
            times.append(e.t)
            return true
        }
        XCTAssertEqual(labels, (1...30).map { "m:\($0)" }, "the spooled batch between its neighbours")
        XCTAssertEqual(times, times.sorted())
    }
}
