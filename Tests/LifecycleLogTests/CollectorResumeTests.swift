import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// Issue 21, items 2 and 8: the collector's trace holds the whole session, in order, each event
/// once, whatever happened to the connection; and a recorder call never waits on the network.
/// Real sockets on 127.0.0.1, real LMDB traces.
final class CollectorResumeTests: XCTestCase {
    /// A port nobody listens on: a collector's, after it stopped.
    private func freePort(_ folder: TemporaryFolder) throws -> Int {
        let gone = try RunningCollector(path: folder.file("gone.lmdb"))
        let port = gone.port
        try gone.stop()
        return port
    }

    /// A sink whose writes wait for the acknowledgement however long a loaded machine takes
    /// (``acknowledgementWaitInTests``), unless a test gives the product's wait.
    private static func sink(_ port: Int, process: String = "", fallback: (any RecordingSink)? = nil, ackTimeout: Duration = .seconds(2),
                             acknowledgementWait: Duration = acknowledgementWaitInTests,
                             maxBacklogBytes: Int = CollectorSink.defaultMaxBacklogBytes) -> CollectorSink {
        CollectorSink(host: "127.0.0.1", port: port, token: nil, process: process, kind: .app, fallback: fallback,
                      retryInterval: .milliseconds(50), ackTimeout: ackTimeout, acknowledgementWait: acknowledgementWait,
                      maxBacklogBytes: maxBacklogBytes)
    }

    private func labels(_ events: [LifecycleEvent]) -> [String] {
        events.map { event in
            switch event.kind {
            case .mark(let label): return label
            default: return event.name
            }
        }
    }

    private func marks(_ range: Range<Int>, prefix: String, t: Double = 0) -> [LifecycleEvent] {
        range.map { LifecycleEvent(t: t + Double($0), .mark(label: "\(prefix):\($0)")) }
    }

    // MARK: Item 2: the app starts first, the collector restarts, nothing twice

    /// The app launches, opens its window and goes active while no collector runs (the README used
    /// to say to start the collector first); the collector starts 300 ms later. Its trace holds the
    /// session from the launch, in order, each event once, with the intervals the app saw, and
    /// replays without the false `event-before-launch` errors it once gave.
    func testAnAppThatStartsBeforeTheCollectorGetsItsWholeSessionIntoTheTrace() throws {
        let folder = TemporaryFolder()
        let port = try freePort(folder)
        let path = folder.file("session.lmdb")
        let fallback = MemorySink()
        let sink = Self.sink(port, process: "", fallback: fallback)
        let recorder = LifecycleRecorder(sink: sink, durability: .batched(maxDelayMilliseconds: 5, maxEvents: 64))
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)], reason: "user")
        recorder.open(window: "w1", scene: "main")
        recorder.phase(.active, window: "w1")
        recorder.phase(.active)
        recorder.write(key: "draft", scope: .scene, window: "w1")
        try recorder.flush()
        XCTAssertFalse(sink.isConnected)
        XCTAssertEqual(fallback.events.count, 5, "not acknowledged in time: on the device's disk too")
        Thread.sleep(forTimeInterval: 0.3)
        let running = try RunningCollector(path: path, port: port)
        recorder.save(window: "w1")
        recorder.phase(.inactive, window: "w1")
        recorder.phase(.inactive)
        recorder.phase(.background, window: "w1")
        recorder.phase(.background)
        try recorder.flush()
        waitForAcknowledgement(sink, of: 10)
        try recorder.close()
        try running.stop()

        let stored = try storedEvents(path)
        XCTAssertEqual(stored.map(\.name), ["launch", "open", "phase", "phase", "write", "save", "phase", "phase", "phase", "phase"])
        XCTAssertEqual(stored.compactMap { TraceInterchange.Delivery($0)?.n }, Array(1...10), "each event once, in order")
        XCTAssertEqual(stored[0].t, 0, "the trace starts at the session's first event")
        XCTAssertGreaterThanOrEqual(stored[5].t - stored[4].t, 250, "the 300 ms before the collector ran are kept: \(stored.map(\.t))")
        let report = try Replayer.replay(path)
        XCTAssertFalse(report.findings.contains { $0.rule == .eventBeforeLaunch }, "\(report.findings)")
        XCTAssertEqual(report.findings.map(\.rule), [], "a clean session")
    }

    /// The collector stops while the app records and a new one starts on the same trace and port:
    /// what the first stored is not sent twice, what it never saw is sent to the second, in order.
    func testACollectorThatRestartsMidSessionGetsTheRestAndNothingTwice() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        var first: RunningCollector? = try RunningCollector(path: path)
        let port = first!.port  // `!`: set just above
        let fallback = MemorySink()
        let sink = Self.sink(port, process: "app", fallback: fallback)
        try sink.write(marks(0..<3, prefix: "before"))  // returns once acknowledged (it assumed 25 ms were enough)
        waitForAcknowledgement(sink, of: 3)
        try first?.stop()
        first = nil
        try sink.write(marks(3..<6, prefix: "down", t: 0))
        XCTAssertEqual(labels(fallback.events), ["down:3", "down:4", "down:5"], "the batch nobody acknowledged is on disk too")
        let second = try RunningCollector(path: path, port: port)
        try sink.write(marks(6..<9, prefix: "after", t: 0))
        waitForAcknowledgement(sink, of: 9)
        sink.close()
        try second.stop()
        let stored = try storedEvents(path)
        XCTAssertEqual(labels(stored), ["before:0", "before:1", "before:2", "down:3", "down:4", "down:5", "after:6", "after:7", "after:8"])
        XCTAssertEqual(stored.map(\.t), stored.map(\.t).sorted(), "t never goes backwards")
        XCTAssertEqual(Set(stored.map(\.process)), ["app"])
    }

    /// The protocol itself, without the reference client: a resuming client is told what the trace
    /// holds (also after the collector restarts), an event sent again is acknowledged and not stored,
    /// and an event that would leave a gap is refused with a message that says what to do.
    func testTheCollectorTellsAResumingClientWhatItHasAndStoresEachEventOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        func event(_ n: Int) -> String {
            #"{"event":"mark","t":\#(n),"label":"e\#(n)","delivery":{"client":"c1","n":\#(n),"t":\#(n)}}"# + "\n"
        }
        let handshake = #"{"lifecycle-log":"collector","version":1,"process":"raw","client":"c1","now":10}"# + "\n"
        var running = try RunningCollector(path: path)
        var fd = try SocketIO.connect(host: "127.0.0.1", port: running.port, until: .now + .seconds(5))
        try SocketIO.sendAll(fd, Array((handshake + event(1) + event(2)).utf8), until: .now + .seconds(5))
        var replies = readLines(fd, until: { $0.contains { $0.contains(#""ack":2"#) } })
        XCTAssertEqual(replies.first, #"{"ack":0,"have":0}"#)
        close(fd)
        try running.stop()

        running = try RunningCollector(path: path)
        fd = try SocketIO.connect(host: "127.0.0.1", port: running.port, until: .now + .seconds(5))
        try SocketIO.sendAll(fd, Array((handshake + event(2) + event(3) + event(5)).utf8), until: .now + .seconds(5))
        replies = readLines(fd, until: { $0.contains { $0.contains(#""ack":2"#) } && $0.contains { $0.contains("gap") } })
        close(fd)
        try running.stop()
        XCTAssertEqual(replies.first, #"{"ack":0,"have":2}"#, "read back from the trace by the new collector")
        XCTAssertTrue(replies.contains { $0.contains("delivery 5 of client c1 leaves a gap: the trace holds its events up to 3") && $0.hasSuffix(#""line":4}"#) }, "\(replies)")
        XCTAssertEqual(labels(try storedEvents(path)), ["e1", "e2", "e3"])
    }

    private func readLines(_ fd: Int32, until done: ([String]) -> Bool) -> [String] {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        var lines: [String] = []
        while !done(lines), SocketIO.wait(fd, for: Int32(POLLIN), until: deadline), ContinuousClock.now < deadline {
            if SocketIO.receive(fd, into: &bytes) == .closed { break }
            lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return lines
    }

    /// With no collector for longer than the backlog holds, the sink stops streaming (the trace would
    /// get a gap) and says so; the fallback has everything from the first event the collector lacks.
    /// Without a fallback, a write then fails, so the recorder keeps the events.
    func testABacklogPastItsBoundStopsStreamingAndTheFallbackHasTheRest() throws {
        let folder = TemporaryFolder()
        let port = try freePort(folder)
        let fallback = MemorySink()
        let sink = Self.sink(port, fallback: fallback, maxBacklogBytes: 2_000)
        for batch in 0..<6 { try sink.write(marks(batch * 5..<batch * 5 + 5, prefix: "m")) }
        let warning = try XCTUnwrap(sink.takeWarning())
        XCTAssertTrue(warning.message.contains("stopped streaming") && warning.message.contains("replay merge"), warning.message)
        XCTAssertEqual(labels(fallback.events), (0..<30).map { "m:\($0)" })
        XCTAssertEqual(fallback.events.compactMap { TraceInterchange.Delivery($0)?.n }, (1...30).map(UInt64.init))
        sink.close()

        let bare = Self.sink(port, maxBacklogBytes: 2_000)
        try bare.write(marks(0..<5, prefix: "m"))
        XCTAssertTrue(bare.takeWarning()?.message.contains("wait in memory") == true)
        var threw = false
        for batch in 1..<10 where !threw {
            do { try bare.write(marks(batch * 5..<batch * 5 + 5, prefix: "m")) } catch { threw = true }
        }
        XCTAssertTrue(threw, "a full backlog without a fallback gives the batch back")
        bare.close()
    }

    /// A batch larger than the whole backlog (a recorder that held events through an outage, or a
    /// flood faster than the network) goes to a running collector in parts, as room comes with its
    /// acknowledgements: whole, in order, and the sink keeps streaming.
    func testABatchLargerThanTheBacklogReachesARunningCollectorInParts() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let sink = Self.sink(running.port, maxBacklogBytes: 2_000)
        try sink.write(marks(0..<1, prefix: "m"))  // connected
        waitForAcknowledgement(sink, of: 1)
        try sink.write(marks(1..<200, prefix: "m"))  // about 25 KB: twelve times the backlog
        waitForAcknowledgement(sink, of: 200)
        XCTAssertNil(sink.takeWarning().flatMap { $0.message.contains("stopped streaming") ? $0 : nil }, "still streaming")
        sink.close()
        try running.stop()
        XCTAssertEqual(labels(try storedEvents(path)), (0..<200).map { "m:\($0)" })
    }

    // MARK: Item 8: the caller's thread never waits on the network

    /// A collector that accepts the connection and never answers (a hung Mac, a firewall that drops
    /// packets): a `.background` phase, committed on the caller's thread, returns after the
    /// acknowledgement wait (25 ms) and the fallback's write, not after the 5 s timeouts.
    func testAnUrgentCallReturnsQuicklyWhenTheCollectorNeverAnswers() throws {
        let folder = TemporaryFolder()
        let listener = try CollectorListener.open(host: "127.0.0.1", port: 0, tokenGiven: false)
        defer { close(listener.fd) }
        let fallback = SpoolSink(path: folder.file("spool.jsonl"))
        let sink = Self.sink(listener.port, fallback: fallback, ackTimeout: .seconds(5), acknowledgementWait: .milliseconds(25))
        let recorder = LifecycleRecorder(sink: sink)
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        var worst: Duration = .zero
        for _ in 0..<5 {
            let start = ContinuousClock.now
            recorder.phase(.background)
            worst = max(worst, .now - start)
            recorder.phase(.active)
        }
        XCTAssertLessThan(worst, .milliseconds(500), "a recorder call waited on the network")
        let spooled = try String(contentsOfFile: folder.file("spool.jsonl"), encoding: .utf8)
        XCTAssertEqual(spooled.split(separator: "\n").filter { $0.contains(#""event":"phase""#) }.count, 9, "each urgent batch is on disk before its call returns")
        try recorder.close()
    }
}
