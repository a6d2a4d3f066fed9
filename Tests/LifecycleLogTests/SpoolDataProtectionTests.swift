import Foundation
import XCTest
@testable import LifecycleLog

/// Issue 21, item 6: before the device's first unlock, data protection keeps the app container's
/// files closed (`open` fails with `EPERM`), as when a background launch comes first after a
/// reboot. The spool is not damaged: the events wait in the recorder, in order, and are written
/// when the file opens. Here `chattr +i` gives the same `EPERM`, even to root.
final class SpoolDataProtectionTests: XCTestCase {
    private func immutable(_ path: String, _ on: Bool) throws {
        let result = try runProgram("/usr/bin/env", ["chattr", on ? "+i" : "-i", path])
        if result.status != 0 { throw XCTSkip("chattr cannot make \(path) immutable here: \(result.stderr)") }
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The first launch after a reboot: the spool's folder refuses the new file. Nothing is lost
    /// and nothing goes elsewhere: once it opens, `session.jsonl` has the header and every event.
    func testAFreshSpoolThatCannotBeCreatedYetGetsEveryEventOnceItCan() throws {
        let folder = TemporaryFolder()
        let spools = folder.file("Spools")
        try FileManager.default.createDirectory(atPath: spools, withIntermediateDirectories: true)
        try immutable(spools, true)
        defer { try? immutable(spools, false) }
        let path = spools + "/session.jsonl"
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path), durability: .batched(maxDelayMilliseconds: 10_000, maxEvents: 1_000))
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)], reason: "background")
        recorder.phase(.background)  // committed now: refused, kept
        XCTAssertThrowsError(try recorder.flush()) { error in
            XCTAssertTrue("\(error)".contains("data protection"), "\(error)")
        }
        recorder.mark("still locked")
        try immutable(spools, false)
        try recorder.flush()
        try recorder.close()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spools), ["session.jsonl"], "no file beside it")
        let written = try lines(path)
        XCTAssertEqual(written.count, 4)
        XCTAssertTrue(written[0].contains("lifecycle-trace"))
        XCTAssertTrue(written[1].contains(#""event":"launch""#) && written[2].contains(#""event":"phase""#) && written[3].contains("still locked"))
        let report = try Replayer.replay(path)
        XCTAssertEqual(report.events, 3)
    }

    /// A spool from an earlier run that cannot be opened yet: this run's events (whose times start
    /// from 0, not from the spool's last `t`) go to a new file beside it once it opens; the old one is untouched.
    func testAnEarlierSpoolThatCannotBeOpenedYetKeepsItsEventsAndThisRunGoesBesideIt() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.jsonl")
        let earlier = LifecycleRecorder(sink: SpoolSink(path: path))
        earlier.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        earlier.mark("earlier run")
        try earlier.close()
        let before = try lines(path)
        try immutable(path, true)
        defer { try? immutable(path, false) }
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path))
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)], reason: "background")
        XCTAssertThrowsError(try recorder.flush())
        try immutable(path, false)
        recorder.mark("this run")
        try recorder.close()
        XCTAssertEqual(try lines(path), before, "the earlier spool is untouched")
        let beside = folder.file("session-2.jsonl")
        let written = try lines(beside)
        XCTAssertEqual(written.count, 3)
        XCTAssertTrue(written[1].contains(#""reason":"background""#) && written[2].contains("this run"))
        XCTAssertEqual(try Replayer.replay(beside).events, 2)
    }
}

/// Issue 21, items 6 and 7: where a spool goes on each platform, and no LMDB trace inside an App Sandbox.
final class SpoolLocationTests: XCTestCase {
    func testTheDefaultSpoolIsInApplicationSupportAndOnTVOSInCaches() {
        XCTAssertEqual(SpoolSink.defaultPath(platform: .iOS, home: "/var/mobile/Containers/Data/Application/X"),
                       "/var/mobile/Containers/Data/Application/X/Library/Application Support/LifecycleLog/session.jsonl")
        XCTAssertEqual(SpoolSink.defaultPath(platform: .tvOS, home: "/private/var/mobile/Containers/Data/Application/Y/"),
                       "/private/var/mobile/Containers/Data/Application/Y/Library/Caches/LifecycleLog/session.jsonl")
        XCTAssertEqual(SpoolSink.defaultPath(platform: .macOS, home: "/Users/me", app: "com.example.notes", file: "ui-test.jsonl"),
                       "/Users/me/Library/Application Support/LifecycleLog/com.example.notes/ui-test.jsonl")
    }

    func testADefaultSpoolInAFreshContainerRecords() throws {
        let folder = TemporaryFolder()
        let path = SpoolSink.defaultPath(platform: .tvOS, home: folder.path)
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path))
        recorder.launch(platform: .tvOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        try recorder.close()
        XCTAssertEqual(try Replayer.replay(path).events, 1)
    }

    func testATraceFileSinkRefusesToOpenInsideAnAppSandboxAndSaysWhatToUse() throws {
        let folder = TemporaryFolder()
        setenv("APP_SANDBOX_CONTAINER_ID", "com.example.notes", 1)
        defer { unsetenv("APP_SANDBOX_CONTAINER_ID") }
        XCTAssertThrowsError(try TraceFileSink(path: folder.file("session.lmdb"))) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .invalidArgument)
            XCTAssertTrue("\(error)".contains("SpoolSink"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("session.lmdb")), "nothing created")
    }
}
