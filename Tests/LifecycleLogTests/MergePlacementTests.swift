import Foundation
import XCTest
@testable import LifecycleLog

/// `replay merge` places a spooled batch the collector's trace lacks between its sink's neighbours
/// in the trace (spec/collector-protocol.md, "Delivery"). Since issue 21 the reference sink resumes
/// and the collector gets such a batch itself, so the trace here comes from a client that does not
/// resume (an older sink): a raw connection that sends deliveries 1–10, then, on a new connection
/// after a gap in time, 21–30; 11–20 are only in the spool.
final class MergePlacementTests: XCTestCase {
    private func event(_ n: Int, t: Int) -> String {
        #"{"event":"mark","t":\#(t),"label":"m:\#(n)","delivery":{"client":"old-sink","n":\#(n),"t":\#(t)}}"# + "\n"
    }

    private func send(_ port: Int, _ lines: String) throws {
        let fd = try SocketIO.connect(host: "127.0.0.1", port: port, until: .now + .seconds(5))
        defer { close(fd) }
        let handshake = #"{"lifecycle-log":"collector","version":1,"process":"com.example.app"}"# + "\n"
        try SocketIO.sendAll(fd, Array((handshake + lines).utf8), until: .now + .seconds(5))
        var input: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(60)  // the acknowledgement, however loaded the machine
        while !String(decoding: input, as: UTF8.self).contains(#""ack":10"#), SocketIO.wait(fd, for: Int32(POLLIN), until: deadline) {
            if SocketIO.receive(fd, into: &input) == .closed { break }
        }
    }

    func testASpooledBatchTheTraceLacksIsPlacedBetweenItsSinksNeighbours() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        try send(running.port, (1...10).map { event($0, t: $0 * 10) }.joined())
        Thread.sleep(forTimeInterval: 0.3)  // the next connection arrives later: the collector moves it on its own offset
        try send(running.port, (21...30).map { event($0, t: $0 * 10) }.joined())
        try running.stop()

        let spool = folder.file("spool.jsonl")
        let sink = SpoolSink(path: spool)
        try sink.write((11...20).map { n in
            Event(t: Double(n * 10), .mark(label: "m:\(n)"), extraFields: [JSONMember("delivery", .object([
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
