import Foundation
import XCTest
@testable import LifecycleLog

#if canImport(Glibc)
import Glibc
#endif

/// Several writers on one trace (issue 22: 5, 6, 8): recorders, `replay record`
/// and the collector append without losing or refusing each other's events,
/// and no command replaces a trace a writer has open.
final class WritersTests: XCTestCase {
    private func marks(_ trace: String) throws -> [(seq: UInt64, t: Double, label: String)] {
        var result: [(UInt64, Double, String)] = []
        try Trace(path: trace).forEachEvent { seq, event in
            if case .mark(let label) = event.kind { result.append((seq, event.t, label)) }
        }
        return result
    }

    /// Two writers in one process (as two sinks on one file would be): each took its
    /// next seq from what it had seen, and the second failed with MDB_KEYEXIST.
    func testTwoWritersOnOneTraceInterleaveWithoutLosingEvents() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let a = try TraceWriter(path: path)
        let b = try TraceWriter(path: path)
        for i in 0..<3 {
            try a.append([LifecycleEvent(t: Double(10 * i), .mark(label: "a\(i)"), process: "app")])
            try b.append([LifecycleEvent(t: Double(10 * i + 1), .mark(label: "b\(i)"), process: "widget"),
                          LifecycleEvent(t: Double(10 * i + 2), .mark(label: "b\(i)'"), process: "widget")])
        }
        let stored = try marks(path)
        XCTAssertEqual(stored.map(\.seq), Array(1...9))
        XCTAssertEqual(stored.map(\.label), ["a0", "b0", "b0'", "a1", "b1", "b1'", "a2", "b2", "b2'"])
        var processes: [String] = []
        try Trace(path: path).forEachEvent { _, e in processes.append(e.process ?? "") }
        XCTAssertEqual(processes, ["app", "widget", "widget", "app", "widget", "widget", "app", "widget", "widget"],
                       "symbols interned by one writer are found by the other")
        XCTAssertEqual(b.lastSeq, 9)
    }

    /// An event earlier than another writer's last one is stored at that `t`: `t` never goes backwards.
    func testAWriterBehindAnotherWritersTimeIsStoredAtTheTracesLastTime() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let a = try TraceWriter(path: path)
        let b = try TraceWriter(path: path)
        try a.append([LifecycleEvent(t: 500, .mark(label: "a"))])
        try b.append([LifecycleEvent(t: 100, .mark(label: "b")), LifecycleEvent(t: 700, .mark(label: "c"))])
        XCTAssertEqual(try marks(path).map(\.t), [500, 500, 700])
        XCTAssertEqual(b.lastTime, 700)
    }

    /// Two `replay record` processes on one trace: one exited 2 with MDB_KEYEXIST and none of its events were stored.
    func testTwoRecordProcessesOnOneTraceKeepEveryEvent() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let first = try startRecord(path)
        let second = try startRecord(path)
        Thread.sleep(forTimeInterval: 1.0)  // both have opened the trace
        for i in 0..<20 {
            first.input.write(Data("{\"event\":\"mark\",\"t\":\(i),\"label\":\"first \(i)\"}\n".utf8))
            second.input.write(Data("{\"event\":\"mark\",\"t\":\(i),\"label\":\"second \(i)\"}\n".utf8))
            Thread.sleep(forTimeInterval: 0.02)
        }
        try first.input.close()
        try second.input.close()
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        let errors = [first, second].map { String(decoding: $0.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        XCTAssertEqual(first.process.terminationStatus, 0, errors[0])
        XCTAssertEqual(second.process.terminationStatus, 0, errors[1])
        let stored = try marks(path)
        XCTAssertEqual(stored.map(\.seq), Array(1...40))
        XCTAssertEqual(Set(stored.map(\.label)).count, 40)
        XCTAssertEqual(stored.filter { $0.label.hasPrefix("first") }.map(\.label), (0..<20).map { "first \($0)" })
        XCTAssertEqual(stored.filter { $0.label.hasPrefix("second") }.map(\.label), (0..<20).map { "second \($0)" })
        XCTAssertEqual(stored.map(\.t), stored.map(\.t).sorted(), "t never goes backwards")
    }

    /// The child of ``testConcurrentWritersWithKillsKeepEveryAcknowledgedEventOnce``: appends batches of
    /// marks and writes `ACK label` after each commit. Does nothing unless started by that test.
    func testWriterChildProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment["LIFECYCLELOG_WRITER_TRACE"], let name = environment["LIFECYCLELOG_WRITER_NAME"] else { return }
        let batches = Int(environment["LIFECYCLELOG_WRITER_BATCHES"] ?? "") ?? 100
        let writer = try TraceWriter(path: path)
        for i in 0..<batches {
            let batch = (0..<5).map { j in LifecycleEvent(t: Double(i), .mark(label: "\(name) \(i) \(j)"), process: "\(name).p\(i % 7)") }
            try writer.append(batch)
            FileHandle.standardOutput.write(Data("ACK \(name) \(i)\n".utf8))
        }
    }

    /// N writer processes append concurrently to one trace while some are killed (SIGKILL) at
    /// random moments: every acknowledged batch is stored exactly once and whole, seqs run
    /// without a gap, and the writers that were not killed finish.
    func testConcurrentWritersWithKillsKeepEveryAcknowledgedEventOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let count = 6, batches = 150
        var children: [(process: Process, output: Pipe)] = []
        for n in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: testBinary)
            process.arguments = ["LifecycleLogTests.WritersTests/testWriterChildProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment["LIFECYCLELOG_WRITER_TRACE"] = path
            environment["LIFECYCLELOG_WRITER_NAME"] = "w\(n)"
            environment["LIFECYCLELOG_WRITER_BATCHES"] = String(batches)
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            children.append((process, output))
        }
        // Kill every other writer at a different moment, while they all append.
        var generator = SystemRandomNumberGenerator()
        for n in stride(from: 1, to: count, by: 2) {
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.4, using: &generator))
            kill(children[n].process.processIdentifier, SIGKILL)
        }
        var acknowledged: [String: Set<Int>] = [:]
        for (n, child) in children.enumerated() {
            let text = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.process.waitUntilExit()
            for line in text.split(separator: "\n") where line.hasPrefix("ACK ") {
                let parts = line.split(separator: " ")
                acknowledged["\(parts[1])", default: []].insert(Int(parts[2])!)
            }
            if n % 2 == 0 {
                let said = text.split(separator: "\n").filter { $0.contains("error") }.joined(separator: "\n")
                XCTAssertEqual(child.process.terminationReason, .exit, "w\(n)")
                XCTAssertEqual(child.process.terminationStatus, 0, "w\(n): \(said)")
                XCTAssertEqual(acknowledged["w\(n)"]?.count, batches, "w\(n) acknowledged every batch")
            }
        }
        let stored = try marks(path)
        XCTAssertEqual(stored.map(\.seq), (0..<stored.count).map { UInt64($0 + 1) }, "seqs without a gap")
        XCTAssertEqual(stored.map(\.t), stored.map(\.t).sorted(), "t never goes backwards")
        var batchesStored: [String: Int] = [:]
        for mark in stored {
            let parts = mark.label.split(separator: " ")
            batchesStored["\(parts[0]) \(parts[1])", default: 0] += 1
        }
        XCTAssertEqual(Set(stored.map(\.label)).count, stored.count, "no event twice")
        XCTAssertTrue(batchesStored.values.allSatisfy { $0 == 5 }, "every batch stored whole")
        for (name, acks) in acknowledged {
            for i in acks { XCTAssertEqual(batchesStored["\(name) \(i)"], 5, "\(name) batch \(i) acknowledged and stored") }
        }
        let killedAcks = stride(from: 1, to: count, by: 2).map { acknowledged["w\($0)"]?.count ?? 0 }
        print("concurrent writers: \(stored.count) events stored; killed writers had acknowledged \(killedAcks) of \(batches) batches")
    }

    /// `replay import … -o T.lmdb` and `generate -o T.lmdb` replaced a trace a writer was recording into.
    func testNoCommandReplacesATraceAWriterHasOpen() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let writer = try startRecord(path)
        writer.input.write(Data("\(launch())\n".utf8))
        Thread.sleep(forTimeInterval: 1.0)
        let source = folder.write("s.jsonl", launch() + "\n")
        let imported = try replay("import", source, "-o", path, "--force")
        XCTAssertEqual(imported.status, 2, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("a writer"), imported.stderr)
        let generated = try replay("generate", "--events", "25", "-o", path, "--force")
        XCTAssertEqual(generated.status, 2, generated.stderr)
        XCTAssertTrue(generated.stderr.contains("a writer"), generated.stderr)
        writer.input.write(Data((#"{"event":"mark","t":5,"label":"still mine"}"# + "\n").utf8))
        try writer.input.close()
        writer.process.waitUntilExit()
        XCTAssertEqual(writer.process.terminationStatus, 0)
        XCTAssertEqual(try Trace(path: path).eventCount, 2, "the recorded trace is the file's")
        // Once the writer has closed it, the trace may be replaced.
        let after = try replay("import", source, "-o", path, "--force")
        XCTAssertEqual(after.status, 0, after.stderr)
    }

    /// A second session recorded into one trace with stdin `record` had its lines refused
    /// ("t goes backwards") and one stray event kept.
    func testRecordOfASecondSessionMovesItOntoTheTracesTimeline() throws {
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        let session = [launch(), #"{"event":"mark","t":40,"label":"one"}"#, #"{"event":"terminate","t":90}"#].joined(separator: "\n") + "\n"
        let first = try replay("record", path, stdin: session)
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try replay("record", path, stdin: session)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(second.stderr.contains("rejected"), second.stderr)
        var times: [Double] = []
        try Trace(path: path).forEachEvent { _, e in times.append(e.t) }
        XCTAssertEqual(times, [0, 40, 90, 90, 130, 180])
        let check = try replay(path, "--assert")
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }
}
