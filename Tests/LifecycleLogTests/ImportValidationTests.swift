import Foundation
import XCTest
@testable import LifecycleLog

final class ImportValidationTests: XCTestCase {
    /// Imports `jsonl` over an existing trace and checks the error and that nothing changed.
    private func assertRejected(
        _ jsonl: String, line: Int, column: Int? = nil, code: LifecycleLogError.Code = .invalidInput, mentions: String,
        file: StaticString = #filePath, testLine: UInt = #line
    ) throws {
        let folder = TemporaryFolder()
        let existing = folder.file("out.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("good.jsonl", launch()), to: existing)
        let before = try Data(contentsOf: URL(fileURLWithPath: existing))
        let input = folder.write("bad.jsonl", jsonl)
        XCTAssertThrowsError(try TraceInterchange.importJSONLines(from: input, to: existing), file: file, line: testLine) { error in
            guard let e = error as? LifecycleLogError else { return XCTFail("untyped error \(error)", file: file, line: testLine) }
            XCTAssertEqual(e.code, code, "\(e)", file: file, line: testLine)
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: testLine)
            if let column { XCTAssertEqual(e.column, column, "\(e)", file: file, line: testLine) }
            XCTAssertEqual(e.path, input, file: file, line: testLine)
            XCTAssertTrue(e.description.contains(mentions), "\(e) should mention \(mentions)", file: file, line: testLine)
        }
        XCTAssertEqual(folder.contents, ["bad.jsonl", "good.jsonl", "out.lmdb"], "no temporary or lock file may be left", file: file, line: testLine)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: existing)), before, "the existing trace must be untouched", file: file, line: testLine)
    }

    func testEachClassOfMalformedInputNamesTheLine() throws {
        let ok = launch()
        try assertRejected("\(ok)\n{\"event\":\"open\",\"t\":1,", line: 2, column: 23, mentions: "not valid JSON")
        try assertRejected("\(ok)\nnot json", line: 2, column: 1, mentions: "not valid JSON")
        try assertRejected("\(ok)\n[1,2]", line: 2, mentions: "one JSON object")
        try assertRejected("\(ok)\n{\"t\":1}", line: 2, mentions: "missing required field \"event\"")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"label\":\"x\"}", line: 2, mentions: "missing required field \"t\"")
        try assertRejected("\(ok)\n{\"event\":\"open\",\"t\":1,\"scene\":\"main\"}", line: 2, mentions: "\"window\"")
        try assertRejected("\(ok)\n{\"event\":\"open\",\"t\":1,\"window\":7,\"scene\":\"main\"}", line: 2, mentions: "must be a string")
        try assertRejected("\(ok)\n{\"event\":\"open\",\"t\":1,\"window\":null,\"scene\":\"main\"}", line: 2, mentions: "leave the field out")
        try assertRejected("\(ok)\n{\"event\":\"open\",\"t\":1,\"window\":\"w\",\"scene\":\"main\",\"restored\":\"yes\"}", line: 2, mentions: "true or false")
        try assertRejected("\(ok)\n{\"event\":\"phase\",\"t\":1,\"phase\":\"foreground\"}", line: 2, mentions: "unknown phase \"foreground\"")
        try assertRejected("\(ok)\n{\"event\":\"write\",\"t\":1,\"key\":\"k\",\"scope\":\"global\"}", line: 2, mentions: "unknown scope \"global\"")
        try assertRejected("\(ok)\n{\"event\":\"write\",\"t\":1,\"key\":\"k\",\"scope\":\"scene\"}", line: 2, mentions: "needs \"window\"")
        try assertRejected("\(ok)\n{\"event\":\"write\",\"t\":1,\"key\":\"k\",\"scope\":\"app\",\"base\":-1}", line: 2, mentions: "non-negative whole number")
        try assertRejected("\(ok)\n{\"event\":\"save\",\"t\":1,\"keys\":\"k\"}", line: 2, mentions: "list of key names")
        try assertRejected("\(ok)\n{\"event\":\"activity\",\"t\":1,\"name\":\"a\",\"state\":\"paused\"}", line: 2, mentions: "start or stop")
        try assertRejected("{\"event\":\"launch\",\"t\":0,\"platform\":\"Android\",\"scenes\":[]}", line: 1, mentions: "unknown platform \"Android\"")
        try assertRejected("{\"event\":\"launch\",\"t\":0,\"platform\":\"iOS\",\"scenes\":[{\"kind\":\"Window\"}]}", line: 1, mentions: "scenes[0].id")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":\"soon\",\"label\":\"x\"}", line: 2, mentions: "non-negative number")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":-5,\"label\":\"x\"}", line: 2, mentions: "non-negative number")
        try assertRejected(launch(t: 100) + "\n# comment\n\n{\"event\":\"mark\",\"t\":99,\"label\":\"x\"}", line: 4, mentions: "goes backwards")
        try assertRejected("{\"format\":\"lifecycle-trace\",\"version\":3}\n\(ok)", line: 1, code: .unsupportedVersion, mentions: "format version 3, but this replay reads version 2")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":1,\"label\":\"a\",\"label\":\"b\"}", line: 2, mentions: "duplicate member")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":1,\"label\":\"\\ud800\"}", line: 2, mentions: "surrogate")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":1,\"label\":\"tab\there\"}", line: 2, mentions: "control character")
        try assertRejected("\(ok)\n{\"event\":\"mark\",\"t\":01,\"label\":\"x\"}", line: 2, mentions: "leading zero")
        try assertRejected("\(ok)\n" + String(repeating: "[", count: 5000), line: 2, mentions: "nesting")
    }

    func testColumnsCountCharactersNotBytes() throws {
        try assertRejected("{\"event\":\"mark\",\"t\":0,\"label\":\"héllo\"} x", line: 1, column: 40, mentions: "unexpected text")
    }

    func testInvalidUTF8IsAnInputError() throws {
        let folder = TemporaryFolder()
        var bytes = Array(launch().utf8) + [0x0A]
        bytes += Array(#"{"event":"mark","t":1,"label":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        let input = folder.file("bad.jsonl")
        _ = FileManager.default.createFile(atPath: input, contents: Data(bytes))
        XCTAssertThrowsError(try TraceInterchange.importJSONLines(from: input, to: folder.file("o.lmdb"))) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.line, 2)
            XCTAssertTrue("\(error)".contains("UTF-8"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("o.lmdb")))
    }

    func testCRLFLineEndingsAndAByteOrderMarkAreAccepted() throws {
        let folder = TemporaryFolder()
        let input = folder.file("crlf.jsonl")
        _ = FileManager.default.createFile(atPath: input, contents: Data([0xEF, 0xBB, 0xBF] + Array((launch() + "\r\n" + #"{"event":"mark","t":1,"label":"x"}"# + "\r\n").utf8)))
        XCTAssertEqual(try TraceInterchange.importJSONLines(from: input, to: folder.file("o.lmdb")), 2)
    }

    func testLinesLongerThanTheReadBufferAndSplitAcrossReadsAreWhole() throws {
        let folder = TemporaryFolder()
        let lines = ["short", String(repeating: "x", count: 100), "", "é" + String(repeating: "ü", count: 40), "last-no-newline"]
        let path = folder.write("lines.txt", lines.joined(separator: "\n"))
        var reader = try LineReader(path: path, bufferSize: 16)
        var read: [String] = []
        try reader.forEachLine { number, bytes in
            XCTAssertEqual(number, read.count + 1)
            read.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
        XCTAssertEqual(read, lines)
    }
}
