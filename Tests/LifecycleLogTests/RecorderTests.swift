import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage

final class RecorderTests: XCTestCase {
    /// A clock a test moves by hand.
    private final class ManualClock: Sendable {
        let now = Locked<Double>(0)
        func advance(_ ms: Double) { now.withLock { $0 += ms } }
        var clock: LifecycleRecorder.Clock { { [self] in now.withLock { $0 } } }
    }

    func testEventsGetTimesFromTheInjectedClockAndAppendingContinuesSeqAndTime() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let clock = ManualClock()
        clock.advance(1000)  // the clock's origin is not the trace's start
        var recorder: LifecycleRecorder? = try LifecycleRecorder(path: path, clock: clock.clock)
        recorder?.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        clock.advance(5)
        recorder?.open(window: "w1", scene: "main")
        clock.advance(2.5)
        recorder?.phase(.active, window: "w1")
        try recorder?.close()
        recorder = nil
        XCTAssertEqual(try storedEvents(path).map(\.t), [0, 5, 7.5])

        let reopened = try LifecycleRecorder(path: path, clock: clock.clock)
        clock.advance(10)
        reopened.mark("after reopening")
        try reopened.close()
        let all = try storedEvents(path)
        XCTAssertEqual(all.count, 4)
        XCTAssertEqual(all.last, LifecycleEvent(t: 17.5, .mark(label: "after reopening")))
    }

    func testEveryEventModeCommitsBeforeTheCallReturns() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let recorder = try LifecycleRecorder(path: path, durability: .everyEvent)
        for i in 1...20 {
            recorder.mark("m\(i)")
            XCTAssertEqual(try Trace(path: path).eventCount, i)
        }
    }

    func testGoingToTheBackgroundOrTerminatingCommitsBeforeTheCallReturns() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 600_000, maxEvents: 1_000_000))
        recorder.launch(platform: .iOS, scenes: [])
        recorder.write(key: "notes", scope: .shared)
        XCTAssertEqual(try Trace(path: path).eventCount, 0, "batched: nothing committed yet")
        recorder.phase(.background)
        XCTAssertEqual(try Trace(path: path).eventCount, 3)
        recorder.mark("later")
        recorder.terminate()
        XCTAssertEqual(try Trace(path: path).eventCount, 5)
    }

    func testBatchesCommitAfterTheDelayWithoutAFlush() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 20, maxEvents: 1000))
        recorder.mark("one")
        let deadline = Date().addingTimeInterval(5)
        while try Trace(path: path).eventCount < 1, Date() < deadline { usleep(5000) }
        XCTAssertEqual(try Trace(path: path).eventCount, 1)
    }

    func testManyThreadsRecordingAtOnceLoseAndDuplicateNothingAndKeepEachThreadsOrder() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 2, maxEvents: 64))
        let threads = 8, perThread = 1500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread { recorder.mark("\(thread):\(i)") }
        }
        try recorder.close()
        let labels = try storedEvents(path).map { event -> String in
            guard case .mark(let label) = event.kind else { return "" }
            return label
        }
        XCTAssertEqual(labels.count, threads * perThread)
        XCTAssertEqual(Set(labels).count, threads * perThread, "an event was duplicated")
        for thread in 0..<threads {
            let mine = labels.filter { $0.hasPrefix("\(thread):") }.map { Int($0.split(separator: ":")[1])! }
            XCTAssertEqual(mine, Array(0..<perThread), "thread \(thread)'s events are out of order")
        }
        let times = try storedEvents(path).map(\.t)
        XCTAssertEqual(times, times.sorted(), "t must never go backwards")
    }

    func testAReaderWhileRecordingAlwaysSeesAConsistentPrefix() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 1, maxEvents: 50))
        recorder.mark("0")
        try recorder.flush()
        let done = Locked(false)
        let total = 20_000
        let writerThread = Thread {
            for i in 1..<total { recorder.mark("\(i)") }
            try? recorder.flush()
            done.withLock { $0 = true }
        }
        writerThread.start()
        var reads = 0
        var longest = 0
        repeat {
            var expected = 0
            try Trace(path: path).forEachEvent { seq, event in
                XCTAssertEqual(seq, UInt64(expected + 1))
                XCTAssertEqual(event.kind, .mark(label: "\(expected)"))
                expected += 1
            }
            XCTAssertGreaterThanOrEqual(expected, longest, "a later read saw less")
            longest = expected
            reads += 1
        } while !done.withLock({ $0 })
        XCTAssertEqual(try Trace(path: path).eventCount, total)
        XCTAssertGreaterThan(reads, 1)
    }

    func testRecordCommandKilledAtRandomMomentsAlwaysLeavesAPrefixOfWhatWasSent() throws {
        let folder = TemporaryFolder()
        var lines: [String] = []
        TraceGenerator.generate(.init(events: 60_000, seed: 31)) { lines.append($0.jsonLine) }
        var random = SplitMix64(seed: 17)
        for round in 0..<12 {
            let path = folder.file("killed\(round).lmdb")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: replayExecutable)
            process.arguments = ["record", path]
            let input = Pipe()
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            let killAfter = Int(random.next() % 40_000) + 1
            var sent = 0
            while sent < killAfter {
                let chunk = min(Int(random.next() % 900) + 1, killAfter - sent)
                input.fileHandleForWriting.write(Data((lines[sent..<(sent + chunk)].joined(separator: "\n") + "\n").utf8))
                sent += chunk
                if random.next() % 4 == 0 { usleep(UInt32(random.next() % 3000)) }
            }
            usleep(UInt32(random.next() % 20_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            guard FileManager.default.fileExists(atPath: path), (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 else {
                continue  // killed before it created the file: an empty prefix
            }
            let stored = try storedEvents(path).map(\.jsonLine)
            XCTAssertLessThanOrEqual(stored.count, sent)
            XCTAssertEqual(stored, Array(lines.prefix(stored.count)), "round \(round): not a prefix of what was sent")
            XCTAssertNoThrow(try Replayer.replay(path), "round \(round): the killed trace must replay")
        }
    }

    func testRecordCommandKeepsGoodLinesAndExitsTwoWhenALineWasRejected() throws {
        let folder = TemporaryFolder()
        let path = folder.file("r.lmdb")
        let stream = [launch(), "{oops", #"{"event":"mark","t":5,"label":"kept"}"#, #"{"event":"phase","t":6,"phase":"sideways"}"#, ""].joined(separator: "\n")
        let result = try replay("record", path, stdin: stream)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("line 2, column 2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("line 4"), result.stderr)
        XCTAssertEqual(try storedEvents(path).count, 2)
        // A stream starting before the trace's last t is moved onto its timeline (issue 22: 8), not refused.
        XCTAssertEqual(try replay("record", path, stdin: #"{"event":"mark","t":4,"label":"early"}"#).status, 0)
        XCTAssertEqual(try replay("record", path, stdin: #"{"event":"mark","t":7,"label":"fine"}"#).status, 0)
        XCTAssertEqual(try storedEvents(path).map(\.t), [0, 5, 5, 7])
    }
}
