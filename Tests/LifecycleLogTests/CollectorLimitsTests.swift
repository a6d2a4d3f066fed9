import Foundation
import XCTest
@testable import LifecycleLog

/// The collector's bounds (spec/collector-protocol.md, "Limits"), its terminal
/// hygiene and its messages: over real sockets on 127.0.0.1 into real LMDB
/// traces, in process (`TraceCollector`) and as `replay record --listen`.
final class CollectorLimitsTests: XCTestCase {
    /// `replay record --listen 127.0.0.1:0 TRACE` as a child process, its standard error on a pipe.
    private final class CollectorProcess {
        let process = Process()
        let errors = Pipe()
        private(set) var firstLine = ""
        private(set) var port = 0

        /// `descriptorLimit`: `ulimit -n`; `fileSizeBlocks`: `ulimit -f` (512-byte blocks in dash), a trace
        /// that cannot grow past it fails its writes with EFBIG exactly as on a full disk.
        init(trace: String, listen: String = "127.0.0.1:0", arguments: [String] = [], descriptorLimit: Int? = nil,
             fileSizeBlocks: Int? = nil) throws {
            if descriptorLimit != nil || fileSizeBlocks != nil {
                let limits = [descriptorLimit.map { "ulimit -n \($0)" }, fileSizeBlocks.map { "ulimit -f \($0)" }].compactMap { $0 }
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", limits.joined(separator: " && ") + " && exec \"$0\" \"$@\"", replayExecutable, "record", "--listen", listen, trace] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: replayExecutable)
                process.arguments = ["record", "--listen", listen, trace] + arguments
            }
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var text: [UInt8] = []
            var byte: UInt8 = 0
            while read(errors.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != 0x0A { text.append(byte) }
            firstLine = String(decoding: text, as: UTF8.self)
            if let match = firstLine.firstMatch(of: /^listening on \S+:(\d+)/) { port = Int(match.1) ?? 0 }
        }

        /// The rest of standard error, up to its end.
        func rest() -> String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

        /// Waits at most `seconds` for the process to end by itself; false (and a SIGKILL) when it did not.
        func exits(within seconds: Double) -> Bool { end(with: 0, within: seconds) }

        /// Sends `signal` and waits at most `seconds` for the end; false (and a SIGKILL) when it did not end.
        func end(with signal: Int32 = SIGTERM, within seconds: Double = 5) -> Bool {
            if signal != 0 { kill(process.processIdentifier, signal) }
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return false
            }
            process.waitUntilExit()
            return true
        }
    }

    private static func marks(_ count: Int, from first: Int = 0, prefix: String) -> [LifecycleEvent] {
        (first..<first + count).map { LifecycleEvent(t: Double($0), .mark(label: "\(prefix):\($0)")) }
    }

    private static func sink(_ port: Int, process: String = "", token: String? = nil) -> CollectorSink {
        CollectorSink(host: "127.0.0.1", port: port, token: token, process: process, kind: .app, fallback: nil,
                      retryInterval: .milliseconds(50), ackTimeout: .seconds(5))
    }

    private static let handshake = #"{"lifecycle-log":"collector","version":1,"process":"raw","kind":"runner"}"#

    private func connect(_ port: Int) throws -> Int32 {
        try SocketIO.connect(host: "127.0.0.1", port: port, until: .now + .seconds(5))
    }

    private func send(_ fd: Int32, _ text: String) throws {
        try SocketIO.sendAll(fd, Array(text.utf8), until: .now + .seconds(5))
    }

    /// Reads lines until the collector closes the connection or `seconds` pass; `closed` says which.
    private func readUntilClosed(_ fd: Int32, seconds: Double = 5) -> (lines: [String], closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while SocketIO.wait(fd, for: Int32(POLLIN), until: deadline) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let got = recv(fd, &chunk, chunk.count, 0)
            if got <= 0 {
                return (String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init), true)
            }
            bytes += chunk[..<got]
            if ContinuousClock.now > deadline { break }
        }
        return (String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init), false)
    }

    // MARK: Limits (issue 23, item 4)

    func testAFirstLineOverTheHandshakeCapGetsItsErrorAndTheConnectionIsClosed() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        // Over 1 MiB, then a good handshake and an event: the error on line 1 closes the connection.
        let fd = try connect(running.port)
        try? send(fd, String(repeating: "x", count: (1 << 20) + 10) + "\n" + Self.handshake + "\n" + #"{"event":"mark","t":1,"label":"sneaky"}"# + "\n")
        let reply = readUntilClosed(fd)
        close(fd)
        XCTAssertTrue(reply.closed, "the connection is closed: \(reply)")
        XCTAssertEqual(reply.lines.count, 1, "\(reply)")
        XCTAssertTrue(reply.lines.first?.hasPrefix("{\"error\":") == true && reply.lines.first?.hasSuffix("\"line\":1}") == true, "\(reply)")
        // A first line with no newline at all: refused as soon as it passes the handshake cap (4 KiB), not buffered.
        let endless = try connect(running.port)
        try? send(endless, String(repeating: "y", count: TraceCollector.Limits().maxHandshakeBytes + 1))
        let second = readUntilClosed(endless)
        close(endless)
        XCTAssertTrue(second.closed, "\(second)")
        XCTAssertTrue(second.lines.first?.contains("4096") == true, "the error names the cap: \(second)")
        let summary = try running.stop()
        XCTAssertEqual(summary.refused, 2)
        XCTAssertEqual(try storedEvents(path).count, 0)
    }

    func testAConnectionThatSendsNoHandshakeIsClosedAfterTheHandshakeTimeout() throws {
        let folder = TemporaryFolder()
        var limits = TraceCollector.Limits()
        limits.handshakeTimeout = .milliseconds(300)
        let running = try RunningCollector(path: folder.file("c.lmdb"), limits: limits)
        let silent = try connect(running.port)
        let started = ContinuousClock.now
        let reply = readUntilClosed(silent)
        close(silent)
        XCTAssertTrue(reply.closed, "\(reply)")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
        XCTAssertTrue(reply.lines.first?.contains("handshake") == true && reply.lines.first?.contains("\"line\":1") == true, "\(reply)")
        // An authenticated connection that goes quiet is kept (an app may be idle for hours).
        let sink = Self.sink(running.port, process: "quiet")
        try sink.write(Self.marks(1, prefix: "a"))
        Thread.sleep(forTimeInterval: 0.6)
        try sink.write(Self.marks(1, from: 1, prefix: "a"))
        XCTAssertTrue(sink.isConnected)
        sink.close()
        let summary = try running.stop()
        XCTAssertEqual(summary.timedOut, 1)
        XCTAssertEqual(summary.connections, 1, "the quiet client stayed on its one connection")
    }

    func testBytesHeldBeforeHandshakesAreBoundedAcrossConnectionsOldestClosedFirst() throws {
        let folder = TemporaryFolder()
        var limits = TraceCollector.Limits()
        limits.maxPendingBytes = 10_000
        let running = try RunningCollector(path: folder.file("c.lmdb"), limits: limits)
        var fds: [Int32] = []
        for _ in 0..<8 {
            let fd = try connect(running.port)
            try send(fd, String(repeating: "z", count: 3000))  // under the handshake cap, no newline
            fds.append(fd)
            Thread.sleep(forTimeInterval: 0.05)  // read in this order
        }
        defer { fds.forEach { close($0) } }
        // 8 × 3,000 bytes against a budget of 10,000: the oldest 5 are closed, the newest 3 held.
        let closed = fds.map { readUntilClosed($0, seconds: 0.3).closed }
        XCTAssertEqual(closed, [true, true, true, true, true, false, false, false])
        let sink = Self.sink(running.port, process: "legit")
        XCTAssertNoThrow(try sink.write(Self.marks(3, prefix: "ok")))
        sink.close()
        let summary = try running.stop()
        XCTAssertEqual(summary.evicted, 5)
        XCTAssertEqual(summary.accepted, 3)
    }

    func testAConnectionFloodUpToTheDescriptorLimitDoesNotLockOutAClient() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let collector = try CollectorProcess(trace: path, descriptorLimit: 64)
        XCTAssertGreaterThan(collector.port, 0, collector.firstLine)
        let errorFD = collector.errors.fileHandleForReading.fileDescriptor
        Thread.detachNewThread {  // its messages are read, as a terminal would
            var chunk = [UInt8](repeating: 0, count: 4096)
            while read(errorFD, &chunk, chunk.count) > 0 {}
        }
        var idle: [Int32] = []
        for _ in 0..<150 {
            guard let fd = try? connect(collector.port) else { continue }
            idle.append(fd)
        }
        defer { idle.forEach { close($0) } }
        Thread.sleep(forTimeInterval: 0.2)
        let sink = Self.sink(collector.port, process: "legit")
        XCTAssertNoThrow(try sink.write(Self.marks(10, prefix: "ok")), "a legitimate client is served during the flood")
        sink.close()
        XCTAssertTrue(collector.end())
        XCTAssertEqual(collector.process.terminationStatus, 0)
        XCTAssertEqual(try storedEvents(path).map(\.process), Array(repeating: "legit", count: 10))
    }

    // MARK: Times (issue 23, item 8)

    func testAnAbsurdJumpOfTIsRefusedAndDoesNotMoveOtherConnections() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let running = try RunningCollector(path: path)
        let fd = try connect(running.port)
        try send(fd, Self.handshake + "\n" + #"{"event":"mark","t":0,"label":"a"}"# + "\n" + #"{"event":"mark","t":1e300,"label":"far"}"# + "\n"
                     + #"{"event":"mark","t":5,"label":"b"}"# + "\n")
        var replies: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while !replies.contains(where: { $0.contains("\"ack\":2") }), Date() < deadline {
            replies += readUntilClosed(fd, seconds: 0.2).lines
        }
        close(fd)
        XCTAssertTrue(replies.contains { $0.contains("jumps ahead") && $0.hasSuffix("\"line\":3}") }, "\(replies)")
        let sink = Self.sink(running.port, process: "other")
        try sink.write(Self.marks(3, prefix: "o"))
        sink.close()
        try running.stop()
        let events = try storedEvents(path)
        XCTAssertEqual(events.count, 5)
        XCTAssertTrue(events.allSatisfy { $0.t < 1e9 }, "\(events.map(\.t))")
    }

    // MARK: Hygiene (issue 22, items 15 to 17)

    func testAnEmptyTokenIsRefusedAtStartAndFromAClient() throws {
        let folder = TemporaryFolder()
        XCTAssertThrowsError(try TraceCollector(trace: folder.file("a.lmdb"), host: "0.0.0.0", port: 0, token: "")) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .invalidArgument)
            XCTAssertTrue("\(error)".contains("empty"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("a.lmdb")))
        for address in ["0.0.0.0:0", "127.0.0.1:0"] {
            let command = try CollectorProcess(trace: folder.file("b.lmdb"), listen: address, arguments: ["--token", ""])
            XCTAssertTrue(command.exits(within: 5), "refused, not listening on \(address)")
            XCTAssertEqual(command.process.terminationStatus, 2)
            XCTAssertTrue(command.firstLine.contains("empty"), command.firstLine)
        }
        let running = try RunningCollector(path: folder.file("c.lmdb"), token: "s3cret")
        let fd = try connect(running.port)
        try send(fd, #"{"lifecycle-log":"collector","version":1,"token":""}"# + "\n")
        let reply = readUntilClosed(fd)
        close(fd)
        XCTAssertTrue(reply.closed && reply.lines.first?.contains("token") == true, "\(reply)")
        XCTAssertEqual(try running.stop().refused, 1)
    }

    func testClientTextReachesTheLogEscaped() throws {
        let folder = TemporaryFolder()
        let running = try RunningCollector(path: folder.file("c.lmdb"))
        let hostile = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}gnp.exe"
        let sink = Self.sink(running.port, process: hostile)
        try sink.write(Self.marks(1, prefix: "x"))
        sink.close()
        let fd = try connect(running.port)
        try send(fd, #"{"lifecycle-log":"collector","version":1,"kind":"\u001b[31mred"}"# + "\n")
        _ = readUntilClosed(fd)
        close(fd)
        try running.stop()
        let lines = running.lines
        XCTAssertTrue(lines.contains { $0.contains("connected: evil") }, "\(lines)")
        for line in lines {
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E }, line.debugDescription)
        }
    }

    func testTheCommandNamesItsTraceTheRefusedClientsAddressAndCountsInTheSingular() throws {
        let folder = TemporaryFolder()
        let path = folder.file("one.lmdb")
        let collector = try CollectorProcess(trace: path)
        XCTAssertTrue(collector.firstLine.contains("one.lmdb"), "the start line names the trace: \(collector.firstLine)")
        let fd = try connect(collector.port)
        try send(fd, "not a handshake\n")
        _ = readUntilClosed(fd)
        close(fd)
        let sink = Self.sink(collector.port, process: "app")
        try sink.write(Self.marks(1, prefix: "m"))
        sink.close()
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertTrue(collector.end())
        let text = collector.rest()
        XCTAssertTrue(text.contains("refused client 127.0.0.1:"), "a refused client is named by its address: \(text)")
        XCTAssertTrue(text.contains("recorded 1 event from 1 connection into"), text)
        XCTAssertTrue(text.contains("refused 1 connection\n"), text)
        XCTAssertFalse(text.contains("1 events") || text.contains("1 connections"), text)
    }

    func testStatusLinesCountTheConnectionsWhileClientsAreConnected() throws {
        let folder = TemporaryFolder()
        var limits = TraceCollector.Limits()
        limits.statusInterval = .milliseconds(100)
        let running = try RunningCollector(path: folder.file("c.lmdb"), limits: limits)
        let sink = Self.sink(running.port, process: "app")
        try sink.write(Self.marks(1, prefix: "m"))
        Thread.sleep(forTimeInterval: 0.4)
        sink.close()
        try running.stop()
        XCTAssertTrue(running.lines.contains { $0.hasPrefix("status: 1 connection, 1 event stored") }, "\(running.lines)")
    }

    // MARK: Its own terminal (issue 23, item 5)

    func testTheCollectorOutlivesItsStandardErrorAndEndsOnSIGTERM() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let collector = try CollectorProcess(trace: path)
        try collector.errors.fileHandleForReading.close()  // `… 2>&1 | head -1`
        for i in 0..<3 {
            let sink = Self.sink(collector.port, process: "app\(i)")
            XCTAssertNoThrow(try sink.write(Self.marks(5, prefix: "m")))  // each connection writes messages
            sink.close()
        }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertTrue(collector.end(), "ends on SIGTERM")
        XCTAssertEqual(collector.process.terminationReason, .exit, "not killed by SIGPIPE")
        XCTAssertEqual(collector.process.terminationStatus, 0)
        XCTAssertEqual(try storedEvents(path).count, 15)
    }

    func testSIGTERMEndsTheCollectorPromptlyWhenNobodyReadsItsStandardError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("c.lmdb")
        let collector = try CollectorProcess(trace: path)
        // Far more messages than a pipe holds (64 KiB), none read: one refused client each.
        let junk = "{\"lifecycle-log\":\"" + String(repeating: "j", count: 400) + "\"}\n"
        for _ in 0..<300 {
            // A collector stuck on its standard error accepts no more: stop at the first connection it does not take.
            guard let fd = try? SocketIO.connect(host: "127.0.0.1", port: collector.port, until: .now + .milliseconds(500)) else { break }
            try? send(fd, junk)
            close(fd)
        }
        let sink = Self.sink(collector.port, process: "app")
        XCTAssertNoThrow(try sink.write(Self.marks(5, prefix: "m")), "served although its messages are not read")
        sink.close()
        XCTAssertTrue(collector.end(within: 5), "ends within 5 s of SIGTERM")
        XCTAssertEqual(collector.process.terminationStatus, 0)
        XCTAssertEqual(try storedEvents(path).count, 5)
    }

    // MARK: A full disk (issue 23, items 1 and 5 together)

    /// The collector on a trace that cannot grow (a file-size limit, as a full disk): at every size, with
    /// a client streaming 6,000 events, it either ends by itself with exit 2 saying why, or (everything
    /// stored) ends within 5 s of SIGTERM with exit 0; what it stored is a prefix of what was sent and
    /// holds every acknowledged event. (scripts/disk-full-campaign does the same on a full tmpfs.)
    func testTheCollectorOnAFullDiskEndsByItselfOrOnSIGTERM() throws {
        let folder = TemporaryFolder()
        let seed = folder.file("seed.lmdb")
        try TraceWriter(path: seed).append(Self.marks(300, prefix: "old"))
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: seed)[.size] as? Int)
        let handshake = #"{"lifecycle-log":"collector","version":1,"process":"full"}"# + "\n"
        let events = (1...6000).map { #"{"event":"mark","t":\#($0),"label":"new:\#($0)"}"# + "\n" }.joined()
        var outcomes: [Int32] = []
        for extra in [0, 16 << 10, 64 << 10, 128 << 10, 256 << 10, 64 << 20] {
            let path = folder.file("c\(extra).lmdb")
            try FileManager.default.copyItem(atPath: seed, toPath: path)
            let collector = try CollectorProcess(trace: path, fileSizeBlocks: (size + extra) / 512)
            XCTAssertNotEqual(collector.port, 0, "\(extra): \(collector.firstLine)")
            let fd = try connect(collector.port)
            try send(fd, handshake)
            try? send(fd, events)  // a collector that failed may close the connection before it is all sent
            // Read the acknowledgements until every event is acknowledged or the collector closes the connection.
            var acknowledged = 0
            var bytes: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(10)
            reading: while acknowledged < 6000, SocketIO.wait(fd, for: Int32(POLLIN), until: deadline) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let got = recv(fd, &chunk, chunk.count, 0)
                if got <= 0 { break }
                bytes += chunk[..<got]
                for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                    guard let match = line.firstMatch(of: /^\{"ack":(\d+)\}$/) else { continue }
                    acknowledged = max(acknowledged, Int(match.1) ?? 0)
                    if acknowledged == 6000 { break reading }
                }
            }
            close(fd)
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertTrue(collector.end(within: 5), "\(extra) bytes to spare: ends by itself or within 5 s of SIGTERM")
            XCTAssertEqual(collector.process.terminationReason, .exit, "\(extra)")
            let status = collector.process.terminationStatus
            outcomes.append(status)
            let errors = collector.rest()
            if status == 2 {
                XCTAssertTrue(errors.contains("File too large") || errors.contains("disk out of space"), "\(extra): \(errors)")
            } else {
                XCTAssertEqual(status, 0, "\(extra): \(errors)")
                XCTAssertEqual(acknowledged, 6000, "\(extra): exit 0 after everything was acknowledged")
            }
            let labels = try storedEvents(path).map { event -> String in
                if case .mark(let label) = event.kind { return label }
                return ""
            }
            XCTAssertEqual(Array(labels.prefix(300)), (0..<300).map { "old:\($0)" }, "\(extra): the events already there are kept")
            let new = Array(labels.dropFirst(300))
            XCTAssertEqual(new, (0..<new.count).map { "new:\($0 + 1)" }, "\(extra): a prefix of what was sent")
            XCTAssertGreaterThanOrEqual(new.count, acknowledged, "\(extra): every acknowledged event is stored")
        }
        XCTAssertEqual(outcomes.first, 2, "no room: the first commit fails")
        XCTAssertEqual(outcomes.last, 0, "room enough: everything stored, ended by SIGTERM")
    }
}

