import Foundation
import XCTest
@testable import LifecycleLog

/// A process recording into a `SpoolSink` and killed with SIGKILL at a random moment leaves a
/// spool that `replay import` reads to an exact prefix of what it recorded (at most one torn
/// final record, dropped with a warning). The writer is this test binary itself, started again
/// to run ``testChildRecordsUntilKilled`` only.
final class SpoolKillTests: XCTestCase {
    private static let childPathVariable = "LIFECYCLELOG_SPOOL_KILL_CHILD"

    /// In the child: records marks "1", "2", … into the spool until killed (10 s at most).
    /// Run normally (no variable), it does nothing.
    func testChildRecordsUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childPathVariable] else { return }
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path), durability: .batched(maxDelayMilliseconds: 1, maxEvents: 32))
        recorder.launch(platform: .iOS, scenes: [])
        let deadline = Date().addingTimeInterval(10)
        var i = 0
        while Date() < deadline {
            i += 1
            recorder.mark("\(i)")
            if i % 500 == 0 { try? recorder.flush() }
        }
    }

    func testAWriterKilledAtAnyMomentLeavesAnExactPrefix() throws {
        let binary = CommandLine.arguments[0]
        try XCTSkipUnless(binary.hasSuffix(".xctest") || FileManager.default.isExecutableFile(atPath: binary),
                          "needs the test binary to start the writer")
        var generator = SystemRandomNumberGenerator()
        for round in 1...5 {
            let folder = TemporaryFolder()
            let spool = folder.file("spool.jsonl")
            let child = Process()
            child.executableURL = URL(fileURLWithPath: binary)
            child.arguments = ["LifecycleLogTests.SpoolKillTests/testChildRecordsUntilKilled"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childPathVariable] = spool
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Wait until events are arriving, then kill at a random moment.
            let started = Date()
            while (try? FileManager.default.attributesOfItem(atPath: spool)[.size] as? Int) ?? 0 < 4096,
                  Date().timeIntervalSince(started) < 10 {
                usleep(2_000)
            }
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "round \(round): the writer was not killed")

            let trace = folder.file("t.lmdb")
            let imported = try replay("import", spool, "-o", trace)
            XCTAssertEqual(imported.status, 0, "round \(round): \(imported.stderr)")
            let exported = try replay("export", trace, "-o", "-")
            let labels = try events(exported.stdout).compactMap { event -> Int? in
                if case .mark(let label) = event.kind { return Int(label) }
                return nil
            }
            XCTAssertGreaterThan(labels.count, 0, "round \(round): nothing recorded")
            XCTAssertEqual(labels, Array(1...max(1, labels.count)), "round \(round): not an exact prefix")
        }
    }
}
