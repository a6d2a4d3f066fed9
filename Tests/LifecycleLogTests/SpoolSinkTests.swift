import Foundation
import XCTest
@testable import LifecycleLog

final class SpoolSinkTests: XCTestCase {
    private func text(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    private func importedEvents(_ jsonl: String, folder: TemporaryFolder) throws -> [LifecycleEvent] {
        let out = folder.file("imported-\(UUID().uuidString.prefix(6)).lmdb")
        try TraceInterchange.importJSONLines(from: jsonl, to: out)
        var events: [LifecycleEvent] = []
        try Trace(path: out).forEachEvent { _, e in events.append(e) }
        return events
    }

    func testASpoolInAMissingFolderCreatesItsFoldersAndRecords() throws {
        // A fresh iOS container has no Library/Application Support (issue 21.6).
        let folder = TemporaryFolder()
        let path = folder.file("Library/Application Support/LifecycleLog/session.jsonl")
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path), clock: { 0 })
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        recorder.mark("recorded")
        try recorder.close()
        XCTAssertNil(recorder.lastError)
        XCTAssertEqual(try importedEvents(path, folder: folder).map(\.name), ["launch", "mark"])
        // A file where a folder should be is reported through lastError, not a crash.
        let blocked = folder.write("file", "x")
        let sink = SpoolSink(path: blocked + "/inside/session.jsonl")
        let blockedRecorder = LifecycleRecorder(sink: sink, clock: { 0 })
        blockedRecorder.mark("lost")
        XCTAssertThrowsError(try blockedRecorder.flush())
        XCTAssertEqual(blockedRecorder.lastError?.code, .io)
    }

    func testRoundTripThroughImportWithHeaderFirst() throws {
        let folder = TemporaryFolder()
        let path = folder.file("session.jsonl")
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path))
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        recorder.open(window: "w1", scene: "main")
        recorder.phase(.active, window: "w1")
        recorder.mark("done")
        try recorder.close()
        XCTAssertNil(recorder.lastError)
        let lines = text(path).split(separator: "\n")
        XCTAssertEqual(String(lines[0]), #"{"format":"lifecycle-trace","version":2}"#)
        XCTAssertEqual(lines.count, 5)
        XCTAssertTrue(text(path).hasSuffix("\n"))
        let events = try importedEvents(path, folder: folder)
        XCTAssertEqual(events.count, 4)
        XCTAssertEqual(events.last?.kind, .mark(label: "done"))
    }

    func testReopeningCutsATornTailAndContinuesTime() throws {
        let folder = TemporaryFolder()
        let path = folder.write("s.jsonl", """
            {"format":"lifecycle-trace","version":2}
            {"t":10,"event":"mark","label":"a"}
            {"t":25.5,"event":"mark","label":"b"}
            {"t":30,"event":"ma
            """)
        let sink = SpoolSink(path: path)
        XCTAssertEqual(sink.lastTime, 25.5)
        XCTAssertEqual(sink.currentPath, path)
        XCTAssertNil(sink.takeWarning())
        let recorder = LifecycleRecorder(sink: sink, clock: { 0 })
        recorder.mark("c")
        try recorder.close()
        let events = try importedEvents(path, folder: folder)
        XCTAssertEqual(events.map(\.t), [10, 25.5, 25.5])
        XCTAssertEqual(events.map(\.kind), [.mark(label: "a"), .mark(label: "b"), .mark(label: "c")])
        XCTAssertEqual(folder.contents.filter { $0.hasSuffix(".jsonl") }, ["s.jsonl"])
    }

    func testReopeningAFileWithOnlyATornHeaderStartsOver() throws {
        let folder = TemporaryFolder()
        let path = folder.write("s.jsonl", #"{"format":"lifecyc"#)
        let sink = SpoolSink(path: path)
        XCTAssertEqual(sink.lastTime, 0)
        try sink.write([LifecycleEvent(t: 1, .mark(label: "x"))])
        sink.close()
        XCTAssertEqual(text(path), "{\"format\":\"lifecycle-trace\",\"version\":2}\n{\"event\":\"mark\",\"t\":1,\"label\":\"x\"}\n")
    }

    func testAnUnopenableSpoolMovesToANewFileBesideItAndSaysSo() throws {
        let folder = TemporaryFolder()
        let path = folder.file("s.jsonl")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)  // open(2) fails even for root
        folder.write("s-2.jsonl", "taken\n")
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path))
        recorder.mark("kept")
        try recorder.flush()
        let error = try XCTUnwrap(recorder.lastError)
        XCTAssertTrue(error.message.contains("recording continues in \(folder.file("s-3.jsonl"))"), error.message)
        XCTAssertEqual(recorder.destination, folder.file("s-3.jsonl"))
        recorder.mark("more")
        try recorder.close()
        XCTAssertNil(recorder.lastError)
        XCTAssertEqual(text(folder.file("s-2.jsonl")), "taken\n")
        XCTAssertEqual(try importedEvents(folder.file("s-3.jsonl"), folder: folder).map(\.kind), [.mark(label: "kept"), .mark(label: "more")])
    }

    func testADamagedSpoolIsLeftAloneAndANewFileTakesTheEvents() throws {
        let folder = TemporaryFolder()
        let path = folder.write("s.jsonl", "not a header\n")
        let sink = SpoolSink(path: path)
        XCTAssertEqual(sink.currentPath, folder.file("s-2.jsonl"))
        XCTAssertNotNil(sink.takeWarning())
        XCTAssertNil(sink.takeWarning())
        try sink.write([LifecycleEvent(t: 1, .mark(label: "x"))])
        sink.close()
        XCTAssertEqual(text(path), "not a header\n")
        XCTAssertEqual(try importedEvents(folder.file("s-2.jsonl"), folder: folder).count, 1)
    }

    #if os(Linux)
    func testAFileThatCannotBeWrittenMovesToANewFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("full.jsonl")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/full")  // every write: ENOSPC
        let recorder = LifecycleRecorder(sink: SpoolSink(path: path))
        recorder.mark("a")
        try recorder.flush()
        XCTAssertNotNil(recorder.lastError)
        XCTAssertEqual(recorder.destination, folder.file("full-2.jsonl"))
        try recorder.close()
        XCTAssertEqual(try importedEvents(folder.file("full-2.jsonl"), folder: folder).map(\.kind), [.mark(label: "a")])
    }
    #endif

    func testWriteThrowsOnlyWhenNoFileBesideCanBeWrittenAndTheRecorderKeepsTheEvents() throws {
        // A file where the spool's folder should be: the folder cannot be made, nor any file in it.
        let folder = TemporaryFolder()
        let blocked = folder.write("blocked", "not a folder")
        let recorder = LifecycleRecorder(sink: SpoolSink(path: blocked + "/s.jsonl"))
        recorder.mark("a")
        XCTAssertThrowsError(try recorder.flush())
        XCTAssertEqual(recorder.lastError?.code, .io)
        try FileManager.default.removeItem(atPath: blocked)
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        try recorder.flush()  // the sink tries a new file again
        try recorder.close()
        let written = try FileManager.default.contentsOfDirectory(atPath: blocked)
        XCTAssertEqual(written.count, 1)
        XCTAssertEqual(try importedEvents(blocked + "/" + written[0], folder: folder).map(\.kind), [.mark(label: "a")])
    }

    func testSuffixedNames() {
        XCTAssertEqual(SpoolSink.suffixed("a/b.jsonl", 2), "a/b-2.jsonl")
        XCTAssertEqual(SpoolSink.suffixed("a.b/c", 3), "a.b/c-3")
        XCTAssertEqual(SpoolSink.suffixed(".hidden", 2), ".hidden-2")
    }

    // MARK: A torn final record on import

    func testImportDropsATornFinalRecordWithAWarningNamingTheLine() throws {
        let folder = TemporaryFolder()
        let input = folder.write("t.jsonl", "{\"format\":\"lifecycle-trace\",\"version\":2}\n{\"t\":1,\"event\":\"mark\",\"label\":\"a\"}\n{\"t\":2,\"event\":\"mark\",\"la")
        let out = folder.file("t.lmdb")
        let result = try replay("import", input, "-o", out)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("line 3: torn final record dropped"), result.stderr)
        XCTAssertEqual(try replay("export", out).stdout, "{\"format\":\"lifecycle-trace\",\"version\":2}\n{\"event\":\"mark\",\"t\":1,\"label\":\"a\"}\n")
    }

    func testAMalformedLineElsewhereOrAValidButWrongFinalLineIsStillAnError() throws {
        let folder = TemporaryFolder()
        let middle = folder.write("m.jsonl", "{\"t\":1,\"event\":\"ma\n{\"t\":2,\"event\":\"mark\",\"label\":\"a\"}\n")
        let r1 = try replay("import", middle, "-o", folder.file("m.lmdb"))
        XCTAssertEqual(r1.status, 2)
        XCTAssertTrue(r1.stderr.contains("line 1"), r1.stderr)
        // Valid JSON without a newline is not torn: an invalid event is an error.
        let wrong = folder.write("w.jsonl", "{\"t\":1,\"event\":\"mark\",\"label\":\"a\"}\n{\"t\":0.5,\"event\":\"mark\",\"label\":\"b\"}")  // t goes backwards
        XCTAssertEqual(try replay("import", wrong, "-o", folder.file("w.lmdb")).status, 2)
        // Torn, but with its newline: an error too (the writer finished the line).
        let terminated = folder.write("n.jsonl", "{\"t\":1,\"event\":\"mark\",\"label\":\"a\"}\n{\"t\":2,\"ev\n")
        XCTAssertEqual(try replay("import", terminated, "-o", folder.file("n.lmdb")).status, 2)
        // A complete final event without a newline is imported.
        let complete = folder.write("c.jsonl", "{\"t\":1,\"event\":\"mark\",\"label\":\"a\"}")
        let r4 = try replay("import", complete, "-o", folder.file("c.lmdb"))
        XCTAssertEqual(r4.status, 0, r4.stderr)
        XCTAssertFalse(r4.stderr.contains("warning"))
    }

    func testTheLibraryReportsTheTornRecordThroughItsWarningCallback() throws {
        let folder = TemporaryFolder()
        let input = folder.write("t.jsonl", "{\"t\":1,\"event\":\"mark\",\"label\":\"a\"}\n{\"t\":2")
        var warnings: [LifecycleLogError] = []
        let count = try TraceInterchange.importJSONLines(from: input, to: folder.file("t.lmdb"), warning: { warnings.append($0) })
        XCTAssertEqual(count, 1)
        XCTAssertEqual(warnings.map(\.line), [2])
        XCTAssertThrowsError(try TraceInterchange.importJSONLines(from: input, to: folder.file("u.lmdb")))
    }
}
