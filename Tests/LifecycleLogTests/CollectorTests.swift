import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

/// The collector (`TraceCollector`, `replay record --listen`) and `CollectorSink`,
/// over real sockets on 127.0.0.1 into real LMDB traces.
final class CollectorTests: XCTestCase {
    private static func marks(_ count: Int, from first: Int = 0, prefix: String, t start: Double = 0) -> [LifecycleEvent] {
        (first..<first + count).map { LifecycleEvent(t: start + Double($0), .mark(label: "\(prefix):\($0)")) }
    }

    /// A sink whose writes wait for the acknowledgement however long a loaded machine takes
    /// (``acknowledgementWaitInTests``): what a test asserts after a write does not hang on 25 ms.
    private static func sink(_ port: Int, process: String = "", token: String? = nil, fallback: (any RecordingSink)? = nil) -> CollectorSink {
        CollectorSink(host: "127.0.0.1", port: port, token: token, process: process, kind: .app, fallback: fallback,
                      retryInterval: .milliseconds(50), ackTimeout: .seconds(2), acknowledgementWait: acknowledgementWaitInTests)
    }

    /// A collector, a `replay record` process and an app's `TraceFileSink` on one trace (issue 22: 5):
    /// the collector died, and the sink kept 68 of 301 events with `MDB_KEYEXIST` as its lastError.
    func testACollectorARecordProcessAndATraceFileSinkOnOneTraceKeepEveryEvent() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let (record, input, err) = try startRecord(path)
        let fileSink = try TraceFileSink(path: path)
        Thread.sleep(forTimeInterval: 1.0)  // `replay record` has opened the trace
        let sink = Self.sink(running.port, process: "collected")
        for batch in 0..<30 {
            try sink.write(Self.marks(10, from: batch * 10, prefix: "collected"))
            try fileSink.write(Self.marks(10, from: batch * 10, prefix: "file", t: 0))
            input.write(Data("{\"event\":\"mark\",\"t\":\(batch),\"label\":\"record:\(batch)\"}\n".utf8))
            Thread.sleep(forTimeInterval: 0.01)
        }
        sink.close()
        try input.close()
        record.waitUntilExit()
        XCTAssertEqual(record.terminationStatus, 0, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        let summary = try running.stop()
        XCTAssertEqual(summary.accepted, 300)
        var labels: [String] = []
        var times: [Double] = []
        try Trace(path: path).forEachEvent { _, e in
            if case .mark(let label) = e.kind { labels.append(label) }
            times.append(e.t)
        }
        XCTAssertEqual(labels.count, 630)
        XCTAssertEqual(Set(labels).count, 630, "no event twice")
        for prefix in ["collected", "file"] {
            XCTAssertEqual(labels.filter { $0.hasPrefix(prefix + ":") }, (0..<300).map { "\(prefix):\($0)" }, prefix)
        }
        XCTAssertEqual(labels.filter { $0.hasPrefix("record:") }, (0..<30).map { "record:\($0)" })
        XCTAssertEqual(times, times.sorted(), "t never goes backwards")
    }

    /// `replay merge` (issue 22): a collector's trace and the sink's fallback spool back into one
    /// session, with the batch both hold (stored by the collector, then spooled unacknowledged) once,
    /// and the spooled batch between its neighbours though a restarted collector shifted the rest.
    func testMergePutsTheTraceAndTheFallbackSpoolBackIntoOneSessionWithNothingTwice() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let spool = folder.file("spool.jsonl")
        var port = 0
        var firstSink: CollectorSink?
        do {  // the first collector goes away with its listening socket
            let first = try RunningCollector(path: path)
            port = first.port
            firstSink = Self.sink(port, process: "com.example.app", fallback: SpoolSink(path: spool))
            try firstSink?.write(Self.marks(10, from: 0, prefix: "m"))  // each returns once acknowledged: not spooled
            try firstSink?.write(Self.marks(10, from: 10, prefix: "m"))
            XCTAssertEqual(firstSink?.acknowledgedEventCount, 20)
            try first.stop()
        }
        let sink = try XCTUnwrap(firstSink)
        try sink.write(Self.marks(10, from: 20, prefix: "m"))  // to the spool too: the collector is gone
        XCTAssertFalse(sink.isConnected)
        let second = try RunningCollector(path: path, port: port)
        // The sink reconnects on its own and resumes: the second collector gets the spooled batch.
        waitForAcknowledgement(sink, of: 30)
        try sink.write(Self.marks(10, from: 30, prefix: "m"))
        XCTAssertTrue(sink.isConnected)
        XCTAssertEqual(sink.acknowledgedEventCount, 40, "not spooled")
        sink.close()
        try second.stop()
        // What the sink spools when the collector stored a batch and died before acknowledging it:
        // the batch, as it was given to the sink (its own t, no process), stamped as sent.
        // Since issue 21 (2) the sink resumes: the second collector got the spooled batch as well.
        var stored = try storedEvents(path)
        XCTAssertEqual(stored.count, 40)
        XCTAssertTrue(stored.allSatisfy { TraceInterchange.Delivery($0) != nil }, "the collector keeps the delivery member")
        let resent = stored[10..<20].map { event in
            var event = event
            event.t = Double(Int(event.t) - Int(stored[10].t) + 10)
            event.process = nil
            return event
        }
        // (In a spool file of its own: the sink's spool continues after it, so t would go back.)
        let resentSpool = folder.file("resent.jsonl")
        let spooled = SpoolSink(path: resentSpool)
        try spooled.write(Array(resent))
        spooled.close()
        let merged = folder.file("merged.lmdb")
        let result = try replay("merge", path, spool, resentSpool, "-o", merged)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("merged 40 events from the trace and 0 from the spools"), result.stderr)
        XCTAssertTrue(result.stderr.contains("20 already there left out"), result.stderr)
        stored = try storedEvents(merged)
        XCTAssertEqual(stored.map { event -> String in
            if case .mark(let label) = event.kind { return label }
            return "?"
        }, (0..<40).map { "m:\($0)" }, "each event once, in the sink's order")
        XCTAssertEqual(stored.map(\.t), stored.map(\.t).sorted())
        XCTAssertEqual(Set(stored.map(\.process)), ["com.example.app"])
    }

    func testConcurrentClientsGoIntoOneTraceInOrderWithTheirProcessStamped() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let names = ["com.example.notes", "com.example.notes.widget", "com.example.notes.share"]
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let sink = Self.sink(running.port, process: names[i])
            for batch in 0..<20 {
                do { try sink.write(Self.marks(10, from: batch * 10, prefix: names[i])) } catch { XCTFail("\(error)") }
            }
            sink.close()
        }
        let summary = try running.stop()
        XCTAssertEqual(summary.accepted, 600)
        XCTAssertEqual(summary.connections, 3)
        let events = try storedEvents(path)
        XCTAssertEqual(events.count, 600)
        for name in names {
            let labels = events.filter { $0.process == name }.map { event -> String in
                guard case .mark(let label) = event.kind else { return "?" }
                return label
            }
            XCTAssertEqual(labels, (0..<200).map { "\(name):\($0)" }, "each client's events, in its order, under its process")
        }
        XCTAssertEqual(events.map(\.t), events.map(\.t).sorted(), "t never goes backwards in the trace")
        XCTAssertEqual(try Trace(path: path).formatVersion, 2)
    }

    func testTheRecorderStreamsThroughTheSinkAndAnEventNamingItsOwnProcessKeepsIt() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let recorder = LifecycleRecorder(sink: Self.sink(running.port, process: "runner"))
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)], process: "com.example.app")
        recorder.mark("from the runner")
        try recorder.close()
        try running.stop()
        XCTAssertEqual(try storedEvents(path).map(\.process), ["com.example.app", "runner"])
    }

    func testAHandshakeWithoutTheTokenOrWithAWrongOneIsRefusedBeforeAnyEventIsStored() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path, token: "s3cret")
        for token in [nil, "guess"] {
            let refused = Self.sink(running.port, process: "intruder", token: token)
            try refused.write(Self.marks(3, prefix: "no"))  // kept for the collector; never sent without the token
            waitUntil { refused.connectionError != nil }
            XCTAssertTrue(refused.connectionError?.message.contains("token") == true, "\(String(describing: refused.connectionError))")
            refused.close()
        }
        // A raw client that pipelines events right after a bad handshake gets none stored either.
        let fd = try SocketIO.connect(host: "127.0.0.1", port: running.port, until: .now + .seconds(2))
        try SocketIO.sendAll(fd, Array(("{\"lifecycle-log\":\"collector\",\"version\":1,\"process\":\"raw\"}\n" + "{\"event\":\"mark\",\"t\":1,\"label\":\"sneaky\"}\n").utf8),
                             until: .now + .seconds(2))
        let reply = readLines(fd, count: 1)
        close(fd)
        XCTAssertTrue(reply.first?.contains("\"line\":1") == true, "\(reply)")
        let allowed = Self.sink(running.port, process: "friend", token: "s3cret")
        XCTAssertNoThrow(try allowed.write(Self.marks(3, prefix: "yes")))
        allowed.close()
        let summary = try running.stop()
        XCTAssertGreaterThanOrEqual(summary.refused, 3, "the refused sinks retry until closed")
        XCTAssertEqual(try storedEvents(path).map(\.process), ["friend", "friend", "friend"])
    }

    func testListeningBeyondLoopbackWithoutATokenIsRefused() throws {
        let folder = TemporaryFolder()
        XCTAssertThrowsError(try TraceCollector(trace: folder.file("c.lmdb"), host: "0.0.0.0", port: 0)) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .invalidArgument)
            XCTAssertTrue("\(error)".contains("--token"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("c.lmdb")), "a refused address creates no trace")
        let result = try runProgram(replayExecutable, ["record", "--listen", "0.0.0.0:0", folder.file("d.lmdb")])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("add --token"), result.stderr)
        // With a token, any address is allowed.
        let withToken = try TraceCollector(trace: folder.file("e.lmdb"), host: "0.0.0.0", port: 0, token: "s3cret")
        XCTAssertGreaterThan(withToken.port, 0)
    }

    func testAMalformedLineIsRefusedToItsClientAloneAndNeverStored() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let fd = try SocketIO.connect(host: "127.0.0.1", port: running.port, until: .now + .seconds(2))
        defer { close(fd) }
        let lines = [
            #"{"lifecycle-log":"collector","version":1,"process":"bad","kind":"runner","pid":7}"#,
            #"{"event":"mark","t":1,"label":"ok 1"}"#,
            #"{"event":"mark","t":2,"label":"#,  // not JSON
            #"{"event":"phase","t":3,"phase":"sideways"}"#,  // not an event
            #"{"event":"mark","t":0.5,"label":"late"}"#,  // t backwards on this connection
            String(repeating: "x", count: 2 << 20),  // over the line cap
            #"{"event":"mark","t":4,"label":"ok 2"}"#,
        ]
        try SocketIO.sendAll(fd, Array((lines.joined(separator: "\n") + "\n").utf8), until: .now + .seconds(5))
        let good = Self.sink(running.port, process: "good")
        XCTAssertNoThrow(try good.write(Self.marks(5, prefix: "good")))
        good.close()
        var replies: [String] = []
        while !replies.contains(where: { $0.contains("\"ack\":2") }) {
            let more = readLines(fd, count: 1)
            guard !more.isEmpty else { break }
            replies += more
        }
        for line in 3...6 {
            XCTAssertTrue(replies.contains { $0.hasPrefix("{\"error\":") && $0.hasSuffix("\"line\":\(line)}") }, "line \(line): \(replies)")
        }
        XCTAssertTrue(replies.contains("{\"ack\":2}"), "\(replies)")
        let summary = try running.stop()
        XCTAssertEqual(summary.rejected, 4)
        let stored = try storedEvents(path)
        XCTAssertEqual(stored.filter { $0.process == "bad" }.map(\.kind), [.mark(label: "ok 1"), .mark(label: "ok 2")])
        XCTAssertEqual(stored.filter { $0.process == "good" }.count, 5)
        XCTAssertTrue(running.log.withLock { $0 }.contains { $0.contains("line 4") }, "the collector names the line")
    }

    func testWithTheCollectorDownTheFallbackGetsEverything() throws {
        let folder = TemporaryFolder()
        var gone: RunningCollector? = try RunningCollector(path: folder.file("gone.lmdb"))
        let port = gone!.port  // `!`: set just above
        try gone?.stop()
        gone = nil  // closes the listening socket: nobody listens on `port` now
        let fallback = MemorySink()
        let recorder = LifecycleRecorder(sink: Self.sink(port, fallback: fallback), durability: .batched(maxDelayMilliseconds: 1, maxEvents: 4))
        for i in 0..<50 { recorder.mark("m\(i)") }
        try recorder.flush()
        XCTAssertTrue(recorder.lastError?.message.contains("they are in memory too") == true, "the outage is reported: \(String(describing: recorder.lastError))")
        XCTAssertEqual(fallback.events.map(\.kind), (0..<50).map { .mark(label: "m\($0)") })

        // Without a fallback the events wait in memory for the collector, and the warning says how to start it.
        let unprotected = Self.sink(port)
        try unprotected.write(Self.marks(1, prefix: "x"))
        let warning = unprotected.takeWarning()
        XCTAssertTrue(warning?.message.contains("replay record --listen") == true, "\(String(describing: warning))")
    }

    func testTheSinkReconnectsWhenTheCollectorIsBackAndNeverStoresABatchTwice() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        var first: RunningCollector? = try RunningCollector(path: path)
        let port = first!.port  // `!`: set just above
        let fallback = MemorySink()
        let sink = Self.sink(port, process: "app", fallback: fallback)
        try sink.write(Self.marks(3, prefix: "before"))  // returns once acknowledged
        XCTAssertEqual(sink.acknowledgedEventCount, 3)
        XCTAssertTrue(sink.isConnected)
        try first?.stop()
        first = nil  // closes the listening socket
        try sink.write(Self.marks(3, from: 3, prefix: "down", t: 3))  // returns once the sink found the collector gone
        XCTAssertFalse(sink.isConnected)
        let second = try RunningCollector(path: path, port: port)
        // The sink reconnects on its own (it retries every 50 ms) and sends the second collector the batch it missed.
        waitForAcknowledgement(sink, of: 6)
        XCTAssertTrue(sink.isConnected)
        try sink.write(Self.marks(3, from: 6, prefix: "after", t: 6))
        XCTAssertEqual(sink.acknowledgedEventCount, 9)
        XCTAssertTrue(sink.isConnected)
        sink.close()
        try second.stop()
        let labels = try storedEvents(path).map { event -> String in
            guard case .mark(let label) = event.kind else { return "?" }
            return label
        }
        // Issue 21 (2): the batch sent while the collector was down reaches the second one, once.
        XCTAssertEqual(labels, ["before:0", "before:1", "before:2", "down:3", "down:4", "down:5", "after:6", "after:7", "after:8"])
        XCTAssertEqual(fallback.events.count, 3, "and is in the fallback, which had it first")
    }

    func testTheCommandPrintsItsPortAndCommitsAndExitsZeroOnSIGINTAndSIGTERM() throws {
        for signal in [SIGINT, SIGTERM] {
            let folder = TemporaryFolder()
            let path = folder.file("c.lmdb")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: replayExecutable)
            process.arguments = ["record", "--listen", "127.0.0.1:0", path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            var text = ""
            while !text.contains("\n") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let first = text.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertTrue(first.hasPrefix("listening on 127.0.0.1:"), first)
            XCTAssertTrue(first.hasSuffix(", recording into \(path)"), "the start line names the trace: \(first)")
            let port = first.firstMatch(of: /^listening on \S+:(\d+),/).flatMap { Int($0.1) } ?? 0
            XCTAssertGreaterThan(port, 0, "the real port, not 0")
            let sink = Self.sink(port, process: "app")
            try sink.write(Self.marks(5, prefix: "m"))  // returns once acknowledged: the collector has them before the signal
            XCTAssertEqual(sink.acknowledgedEventCount, 5)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit)
            XCTAssertEqual(process.terminationStatus, 0)
            XCTAssertEqual(try storedEvents(path).count, 5)
            sink.close()
        }
    }

    /// Reads up to `count` lines (waiting at most 5 s).
    private func readLines(_ fd: Int32, count: Int) -> [String] {
        var buffer: [UInt8] = []
        var lines: [String] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while lines.count < count, SocketIO.wait(fd, for: Int32(POLLIN), until: deadline) {
            // One byte at a time: nothing past the lines asked for is taken from the socket.
            var byte: UInt8 = 0
            let got = recv(fd, &byte, 1, 0)
            if got <= 0 { break }
            if byte == 0x0A {
                lines.append(String(decoding: buffer, as: UTF8.self))
                buffer.removeAll()
            } else {
                buffer.append(byte)
            }
            if ContinuousClock.now > deadline { break }
        }
        return lines
    }
}
