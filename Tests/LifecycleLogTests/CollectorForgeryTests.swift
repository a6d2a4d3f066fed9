import Foundation
import XCTest
@testable import LifecycleLog

/// Issue 28, item 2: a collector client may send only its own deliveries. A delivery name belongs
/// to the connection that named itself with it in its handshake; an event carrying another
/// client's is refused and never stored, `have` counts only an unbroken run of a client's own
/// numbers, and `replay merge` names two different events with one delivery as a conflict.
/// Real sockets on 127.0.0.1, real LMDB traces.
final class CollectorForgeryTests: XCTestCase {
    private static func handshake(client: String?) -> String {
        let member = client.map { #","client":"\#($0)""# } ?? ""
        return #"{"lifecycle-log":"collector","version":1,"process":"raw"\#(member)}"# + "\n"
    }

    private static func event(_ label: String, client: String, n: UInt64) -> String {
        #"{"event":"mark","t":1,"label":"\#(label)","delivery":{"client":"\#(client)","n":\#(n),"t":1}}"# + "\n"
    }

    /// Sends `text` on a new connection and reads the collector's lines until `done` holds
    /// (a generous deadline: the condition, not the clock, ends the wait).
    private func exchange(_ port: Int, _ text: String, until done: ([String]) -> Bool) throws -> [String] {
        let fd = try SocketIO.connect(host: "127.0.0.1", port: port, until: .now + .seconds(30))
        defer { close(fd) }
        try SocketIO.sendAll(fd, Array(text.utf8), until: .now + .seconds(30))
        var bytes: [UInt8] = []
        var lines: [String] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while !done(lines), SocketIO.wait(fd, for: Int32(POLLIN), until: deadline), ContinuousClock.now < deadline {
            if SocketIO.receive(fd, into: &bytes) == .closed { break }
            lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return lines
    }

    private func labels(_ path: String) throws -> [String] {
        try storedEvents(path).map { event in
            if case .mark(let label) = event.kind { return label }
            return event.name
        }
    }

    func testAnEventCarryingAnotherClientsDeliveryIsRefusedAndCannotMakeTheCollectorSkipThatClient() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        var running = try RunningCollector(path: path)
        let real = try exchange(running.port, Self.handshake(client: "c-W") + Self.event("e1", client: "c-W", n: 1) + Self.event("e2", client: "c-W", n: 2)) {
            $0.contains(#"{"ack":2}"#)
        }
        XCTAssertEqual(real.first, #"{"ack":0,"have":0}"#)
        // A connection that never named itself, and one that named itself otherwise.
        let anonymous = try exchange(running.port, Self.handshake(client: nil) + Self.event("forged", client: "c-W", n: UInt64.max)) {
            $0.contains { $0.contains("error") }
        }
        XCTAssertTrue(anonymous.contains { $0.contains(#"delivery names client \"c-W\", but this connection named no client"#) && $0.hasSuffix(#""line":2}"#) }, "\(anonymous)")
        let other = try exchange(running.port, Self.handshake(client: "c-X") + Self.event("forged", client: "c-W", n: 3)) {
            $0.contains { $0.contains("error") }
        }
        XCTAssertTrue(other.contains { $0.contains(#"this connection named itself \"c-X\""#) }, "\(other)")
        // A malformed delivery is refused too, rather than stored for a later reader to misread.
        let malformed = try exchange(running.port, Self.handshake(client: "c-Y") + #"{"event":"mark","t":1,"label":"m","delivery":{"client":"c-W","n":-1}}"# + "\n") {
            $0.contains { $0.contains("error") }
        }
        XCTAssertTrue(malformed.contains { $0.contains("member is not") }, "\(malformed)")
        try running.stop()

        // Restarted, the collector still answers the real client with what it sent, and stores its next event.
        running = try RunningCollector(path: path)
        let resumed = try exchange(running.port, Self.handshake(client: "c-W") + Self.event("e3", client: "c-W", n: 3)) {
            $0.contains(#"{"ack":1}"#)
        }
        try running.stop()
        XCTAssertEqual(resumed.first, #"{"ack":0,"have":2}"#)
        XCTAssertEqual(try labels(path), ["e1", "e2", "e3"], "no forged event stored; the real client's third event stored")
    }

    /// A trace written by a collector older than this version may hold a forged delivery: `have`
    /// counts the client's numbers only while they follow one another, so the forged maximum
    /// does not make the real client's events look stored already.
    func testHaveCountsOnlyAnUnbrokenRunOfTheClientsNumbers() throws {
        let folder = TemporaryFolder()
        let lines = folder.file("old.jsonl")
        let path = folder.file("old.lmdb")
        try (#"{"format":"lifecycle-trace","version":2}"# + "\n" + Self.event("e1", client: "c-W", n: 1)
            + Self.event("forged", client: "c-W", n: UInt64.max) + Self.event("e2", client: "c-W", n: 2)).write(toFile: lines, atomically: true, encoding: .utf8)
        _ = try TraceInterchange.importJSONLines(from: lines, to: path)
        let running = try RunningCollector(path: path)
        let answer = try exchange(running.port, Self.handshake(client: "c-W") + Self.event("e3", client: "c-W", n: 3)) {
            $0.contains(#"{"ack":1}"#)
        }
        try running.stop()
        XCTAssertEqual(answer.first, #"{"ack":0,"have":2}"#)
        XCTAssertEqual(try labels(path), ["e1", "forged", "e2", "e3"])
    }

    /// `replay merge` keeps the trace's own event over a spool's copy, and refuses two different
    /// events with one delivery, naming both, writing nothing.
    func testMergeNamesTwoDifferentEventsWithOneDeliveryAsAConflict() throws {
        let folder = TemporaryFolder()
        let lines = folder.file("t.jsonl"), trace = folder.file("t.lmdb"), spool = folder.file("s.jsonl"), out = folder.file("m.lmdb")
        try (#"{"format":"lifecycle-trace","version":2}"# + "\n" + Self.event("e1", client: "c-W", n: 1)).write(toFile: lines, atomically: true, encoding: .utf8)
        _ = try TraceInterchange.importJSONLines(from: lines, to: trace)

        // The same event, as the sink spooled it (another t): a duplicate, left out.
        try #"{"event":"mark","t":7,"label":"e1","delivery":{"client":"c-W","n":1,"t":1}}"#.appending("\n").write(toFile: spool, atomically: true, encoding: .utf8)
        let summary = try TraceInterchange.merge(trace: trace, spools: [spool], to: out)
        XCTAssertEqual(summary.duplicates, 1)
        XCTAssertEqual(try labels(out), ["e1"])

        // Another event with that delivery: a conflict, and nothing written.
        try FileManager.default.removeItem(atPath: out)
        try Self.event("other", client: "c-W", n: 1).write(toFile: spool, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TraceInterchange.merge(trace: trace, spools: [spool], to: out)) { error in
            let message = (error as? LifecycleLogError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(#"two different events carry delivery 1 of client "c-W": the trace's seq 1 and \#(spool) line 1"#), message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing half-written")
    }
}
