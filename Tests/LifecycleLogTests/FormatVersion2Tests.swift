import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage
@testable import LifecycleLogRules

/// Trace format version 2 data (issue 12): the JSON Lines codec reads it only
/// under a version-2 header, stored layout 2 holds it, and version-1 traces
/// read, store and export exactly as before.
final class FormatVersion2Tests: XCTestCase {
    private let header2 = #"{"format":"lifecycle-trace","version":2}"#
    private let header1 = #"{"format":"lifecycle-trace","version":1}"#

    private var v2Lines: [String] { Self.version2Lines }

    /// One line per version-2 field or value, in export order (so export gives back the same bytes).
    static var version2Lines: [String] {
        [
            #"{"event":"launch","t":0,"process":"com.example.notes","platform":"macOS","scenes":[{"id":"main","kind":"DocumentGroup"}],"reason":"prewarm","debugger":true,"harness":"xcuitest","activation":"accessory"}"#,
            #"{"event":"launch","t":1,"platform":"iOS","scenes":[],"debugger":false}"#,
            #"{"event":"launch","t":2,"platform":"iOS","scenes":[],"activation":"prohibited"}"#,
            #"{"event":"launch","t":3,"platform":"iOS","scenes":[],"activation":"regular","extra":1}"#,
            #"{"event":"open","t":4,"process":"com.example.notes.widget","window":"w1","scene":"main","value":"file:///a.note"}"#,
            #"{"event":"write","t":5,"key":"title","scope":"document","window":"w1","base":0,"document":"file:///a.note"}"#,
            #"{"event":"write","t":6,"key":"title","scope":"document","document":"doc-7"}"#,
            #"{"event":"write","t":7,"key":"body","scope":"document","window":"w1"}"#,
            #"{"event":"read","t":8,"process":"com.example.notes.widget","key":"count","scope":"group","version":3}"#,
            #"{"event":"write","t":9,"key":"count","scope":"group"}"#,
            #"{"event":"save","t":10,"keys":["title"],"window":"w1","store":"doc","stage":"begin","id":"s1"}"#,
            #"{"event":"save","t":11,"stage":"end","id":"s1"}"#,
            #"{"event":"save","t":12,"stage":"end"}"#,
            #"{"event":"save","t":13,"id":"lonely"}"#,
            #"{"event":"activity","t":14,"name":"upload","state":"expire","window":"w1"}"#,
            #"{"event":"phase","t":15,"process":"com.example.notes.share","phase":"background"}"#,
            #"{"event":"kill","t":16,"process":"com.example.notes","reason":"harness","signal":9,"by":"runner"}"#,
            #"{"event":"kill","t":17,"reason":"jetsam"}"#,
            #"{"event":"kill","t":18,"reason":"something-new","signal":15,"note":{"a":[1,2.50]}}"#,
            #"{"event":"mark","t":19,"process":"","label":"test runner"}"#,
            #"{"event":"delegate","t":20,"process":"p","callback":"willTerminate"}"#,
            #"{"event":"terminate","t":21,"process":"p","reason":"quit"}"#,
            #"{"event":"dismiss","t":22,"process":"p","window":"w1"}"#,
            #"{"event":"later","t":23,"process":"p","field":true}"#,
        ]
    }

    private func exportLines(_ path: String) throws -> [String] {
        var lines: [String] = []
        try TraceInterchange.exportJSONLines(try Trace(path: path)) { lines.append(String($0.dropLast())) }
        return lines
    }

    private func meta(_ path: String, _ key: String) throws -> UInt32? {
        let trace = try Trace(path: path)
        return try trace.environment.read { txn in try TraceDatabases.u32(key, trace.databases.meta, in: txn) }
    }

    // MARK: JSON Lines

    func testAVersion2TraceInterpretsEveryNewField() throws {
        let parsed = try events(([header2] + v2Lines).joined(separator: "\n"))
        guard case .launch(let launch) = parsed[0].kind else { return XCTFail("\(parsed[0])") }
        XCTAssertEqual(parsed[0].process, "com.example.notes")
        XCTAssertEqual(launch.debugger, true)
        XCTAssertEqual(launch.harness, "xcuitest")
        XCTAssertEqual(launch.activation, .accessory)
        XCTAssertTrue(launch.isPrewarm)
        XCTAssertEqual(parsed[5].kind, .write(key: "title", scope: .document, window: "w1", base: 0, document: "file:///a.note"))
        XCTAssertEqual(parsed[8].kind, .read(key: "count", scope: .group, version: 3))
        XCTAssertEqual(parsed[10].kind, .save(keys: ["title"], window: "w1", store: "doc", stage: .begin, id: "s1"))
        XCTAssertEqual(parsed[14].kind, .activity(name: "upload", state: .expire, window: "w1"))
        XCTAssertEqual(parsed[16].kind, .kill(reason: "harness", signal: 9, by: "runner"))
        XCTAssertEqual(parsed[16].process, "com.example.notes")
        XCTAssertEqual(parsed[18].kind, .kill(reason: "something-new", signal: 15))
        XCTAssertEqual(parsed[18].extraFields.map(\.name), ["note"])
        XCTAssertEqual(parsed[19].process, "")
        XCTAssertEqual(parsed[23].kind, .unknown(name: "later"))
        XCTAssertEqual(parsed[23].process, "p")
        XCTAssertTrue(parsed.allSatisfy { $0.extraFields.allSatisfy { !["process", "document", "stage", "id", "debugger", "harness", "activation", "prewarmed"].contains($0.name) } })
        // Export writes the same lines back.
        XCTAssertEqual(parsed.map(\.jsonLine), v2Lines)
    }

    func testAVersion1TraceKeepsVersion2MembersAsExtraMembers() throws {
        let v1 = [
            #"{"event":"launch","t":0,"process":"a","platform":"iOS","scenes":[],"debugger":true,"harness":"x","activation":"nonsense"}"#,
            #"{"event":"write","t":1,"process":"a","key":"k","scope":"app","document":null}"#,
            #"{"event":"save","t":2,"stage":"middle","id":5}"#,
            #"{"event":"kill","t":3,"reason":"user"}"#,
            #"{"event":"kill","t":4}"#,
        ]
        // Without a header, `process` and `kill` are refused (issue 22: they need version 2); a trace
        // that declares version 1 keeps them as an extra member and an unknown kind.
        XCTAssertThrowsError(try events(v1.joined(separator: "\n"))) { error in
            XCTAssertTrue("\(error)".contains(#"line 1: seq 1: the member "process" needs trace format version 2"#), "\(error)")
        }
        XCTAssertThrowsError(try events(v1[3])) { error in
            XCTAssertTrue("\(error)".contains(#"the event kind "kill" needs trace format version 2"#), "\(error)")
        }
        for text in [([header1] + v1).joined(separator: "\n")] {
            let parsed = try events(text)
            XCTAssertNil(parsed[0].process)
            guard case .launch(let launch) = parsed[0].kind else { return XCTFail() }
            XCTAssertNil(launch.debugger)
            XCTAssertNil(launch.harness)
            XCTAssertNil(launch.activation)
            XCTAssertEqual(parsed[0].extraFields.map(\.name), ["process", "debugger", "harness", "activation"])
            XCTAssertEqual(parsed[1].kind, .write(key: "k", scope: .app))
            XCTAssertEqual(parsed[1].extraFields, [JSONMember("process", .string("a")), JSONMember("document", .null)])
            XCTAssertEqual(parsed[2].kind, .save())
            XCTAssertEqual(parsed[2].extraFields.map(\.name), ["stage", "id"])
            XCTAssertEqual(parsed[3].kind, .unknown(name: "kill"))
            XCTAssertEqual(parsed[3].extraFields, [JSONMember("reason", .string("user"))])
            XCTAssertEqual(parsed[4].kind, .unknown(name: "kill"))
            XCTAssertFalse(parsed.contains(where: \.needsFormatVersion2))
        }
    }

    func testAVersion1TraceWithAProcessMemberKeepsItThroughStorageAndExport() throws {
        let folder = TemporaryFolder()
        let lines = [
            header1,
            #"{"event":"launch","t":0,"platform":"iOS","scenes":[],"process":"com.example.widget"}"#,
            #"{"event":"phase","t":1,"phase":"active","process":"com.example.widget","stage":"begin"}"#,
            #"{"event":"kill","t":2,"process":"com.example.widget","reason":"user"}"#,
        ]
        let path = folder.file("t.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", lines.joined(separator: "\n") + "\n"), to: path)
        XCTAssertEqual(try exportLines(path), lines)
        XCTAssertEqual(try meta(path, "layout"), 3, "a new trace is layout 3 (checksums), whatever its interchange version")
        XCTAssertEqual(try meta(path, "trace-version"), 1)
        var stored: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, e in stored.append(e); return true }
        XCTAssertTrue(stored.allSatisfy { $0.process == nil })
        XCTAssertEqual(stored[0].extraFields.map(\.name), ["process"])
    }

    func testVersion2ValuesInAVersion1TraceAreRefusedNamingTheHeader() throws {
        let folder = TemporaryFolder()
        let launch = #"{"event":"launch","t":0,"platform":"iOS","scenes":[]}"#
        let cases: [(String, String)] = [
            (#"{"event":"write","t":1,"key":"k","scope":"group"}"#, #"scope "group" needs trace format version 2"#),
            (#"{"event":"read","t":1,"key":"k","scope":"document","window":"w"}"#, #"scope "document" needs trace format version 2"#),
            (#"{"event":"activity","t":1,"name":"a","state":"expire"}"#, #"activity state "expire" needs trace format version 2"#),
        ]
        for (line, message) in cases {
            for header in ["", header1 + "\n"] {
                let input = folder.write("in.jsonl", header + launch + "\n" + line + "\n")
                XCTAssertThrowsError(try TraceInterchange.importJSONLines(from: input, to: folder.file("t.lmdb"))) { error in
                    let e = error as? LifecycleLogError
                    XCTAssertEqual(e?.code, .invalidInput)
                    XCTAssertEqual(e?.line, header.isEmpty ? 2 : 3)
                    XCTAssertTrue("\(error)".contains(message), "\(error)")
                    XCTAssertTrue("\(error)".contains(#"{"format":"lifecycle-trace","version":2}"#), "\(error)")
                }
            }
        }
    }

    func testVersion2InputErrorsNameTheLineAndField() throws {
        let folder = TemporaryFolder()
        let launch = #"{"event":"launch","t":0,"platform":"iOS","scenes":[]}"#
        let cases: [(String, String)] = [
            (#"{"event":"mark","t":1,"process":null,"label":"x"}"#, #"field "process" must be a string, got null"#),
            (#"{"event":"mark","t":1,"process":7,"label":"x"}"#, #"field "process" must be a string"#),
            (#"{"event":"kill","t":1}"#, #"missing required field "reason""#),
            (#"{"event":"kill","t":1,"reason":null}"#, #"field "reason" must be a string"#),
            (#"{"event":"kill","t":1,"reason":"user","signal":"KILL"}"#, #"field "signal" must be a whole number"#),
            (#"{"event":"kill","t":1,"reason":"user","signal":9.5}"#, #"field "signal" must be a whole number"#),
            (#"{"event":"kill","t":1,"reason":"user","signal":-1}"#, #"field "signal" must be a whole number from 0 to"#),
            (#"{"event":"kill","t":1,"reason":"user","signal":9223372036854775808}"#, #"field "signal" must be a whole number from 0 to"#),
            (#"{"event":"write","t":1,"key":"k","scope":"shared","document":"file:///a"}"#, #"field "document" is only for scope "document", got scope "shared""#),
            (#"{"event":"read","t":1,"key":"k","scope":"group","document":"file:///a"}"#, #"field "document" is only for scope "document", got scope "group""#),
            (#"{"event":"kill","t":1,"reason":"user","by":false}"#, #"field "by" must be a string"#),
            (#"{"event":"launch","t":1,"platform":"macOS","scenes":[],"debugger":"yes"}"#, #"field "debugger" must be true or false"#),
            (#"{"event":"launch","t":1,"platform":"macOS","scenes":[],"debugger":null}"#, #"field "debugger" must be true or false, got null"#),
            (#"{"event":"launch","t":1,"platform":"macOS","scenes":[],"harness":1}"#, #"field "harness" must be a string"#),
            (#"{"event":"launch","t":1,"platform":"macOS","scenes":[],"activation":"background"}"#, #"unknown activation "background""#),
            (#"{"event":"save","t":1,"stage":"middle"}"#, #"unknown save stage "middle"; expected begin or end"#),
            (#"{"event":"save","t":1,"stage":null}"#, #"field "stage" must be a string"#),
            (#"{"event":"save","t":1,"id":3}"#, #"field "id" must be a string"#),
            (#"{"event":"write","t":1,"key":"k","scope":"document","document":null}"#, #"field "document" must be a string"#),
            (#"{"event":"write","t":1,"key":"k","scope":"document"}"#, #"needs "document""#),
            (#"{"event":"read","t":1,"key":"k","scope":"document"}"#, #"a read of a document-scoped key needs "document""#),
            (#"{"event":"write","t":1,"key":"k","scope":"galaxy"}"#, #"expected scene, app, shared, group or document"#),
            (#"{"event":"activity","t":1,"name":"a","state":"paused"}"#, #"expected start or stop or expire"#),
        ]
        for (line, message) in cases {
            let input = folder.write("in.jsonl", header2 + "\n" + launch + "\n" + line + "\n")
            XCTAssertThrowsError(try TraceInterchange.importJSONLines(from: input, to: folder.file("t.lmdb")), line) { error in
                let e = error as? LifecycleLogError
                XCTAssertEqual(e?.code, .invalidInput, line)
                XCTAssertEqual(e?.line, 3, line)
                XCTAssertTrue("\(error)".contains(message), "\(line): \(error)")
            }
        }
    }

    func testAVersionAbove2IsRefusedNamingBothVersions() throws {
        XCTAssertThrowsError(try events(#"{"format":"lifecycle-trace","version":3}"# + "\n" + #"{"event":"mark","t":0,"label":"x"}"#)) { error in
            XCTAssertEqual((error as? LifecycleLogError)?.code, .unsupportedVersion)
            XCTAssertTrue("\(error)".contains("format version 3") && "\(error)".contains("reads version 2"), "\(error)")
        }
    }

    // MARK: Stored layout

    func testVersion2TracesRoundTripJSONToLMDBToJSONByteForByte() throws {
        let folder = TemporaryFolder()
        let text = ([header2] + v2Lines).joined(separator: "\n") + "\n"
        let path = folder.file("v2.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", text), to: path)
        XCTAssertEqual(try exportLines(path), [header2] + v2Lines)
        XCTAssertEqual(try meta(path, "layout"), 3)
        XCTAssertEqual(try meta(path, "trace-version"), 2)
        XCTAssertEqual(try Trace(path: path).formatVersion, 2)
        // Through the command line too.
        let out = folder.file("out.jsonl")
        XCTAssertEqual(try replay("export", path, "-o", out).status, 0)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), text)
    }

    /// Issue 29: `prewarmed` on a launch, a fact of the launch. Stored as the record's first extra
    /// member (layout 3 unchanged: an older reader keeps it as an unknown member), read back into
    /// the launch, exported in its place; `null` or a string is refused naming the field.
    func testPrewarmedRoundTripsAndIsChecked() throws {
        let folder = TemporaryFolder()
        let line = #"{"event":"launch","t":3,"platform":"iOS","scenes":[],"reason":"user","prewarmed":true,"extra":2}"#
        let path = folder.file("prewarmed.lmdb")
        try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", header2 + "\n" + line + "\n"), to: path)
        XCTAssertEqual(try exportLines(path), [header2, line])
        var stored: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, e in stored.append(e); return true }
        guard case .launch(let launch)? = stored.first?.kind else { return XCTFail("no launch") }
        XCTAssertEqual(launch.prewarmed, true)
        XCTAssertEqual(launch.reason, "user")
        XCTAssertEqual(stored.first?.extraFields.map(\.name), ["extra"])
        var reducer = LifecycleReducer()
        for (i, event) in try events(header2 + "\n" + line + "\n" + #"{"event":"phase","t":30000,"phase":"active"}"#).enumerated() {
            reducer.apply(seq: UInt64(i + 1), event)
        }
        reducer.finish()
        XCTAssertEqual(reducer.findings.map(\.rule), [.slowLaunch], "judged as the user's launch it is, from its t")
        for bad in ["null", "\"yes\""] {
            XCTAssertThrowsError(try events(header2 + "\n" + #"{"event":"launch","t":0,"platform":"iOS","scenes":[],"prewarmed":"# + bad + "}")) { error in
                XCTAssertTrue("\(error)".contains("prewarmed"), "\(error)")
            }
        }
    }

    func testEachVersion2FieldRoundTripsAlone() throws {
        let folder = TemporaryFolder()
        for (i, line) in v2Lines.enumerated() {
            let path = folder.file("one-\(i).lmdb")
            try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", header2 + "\n" + line + "\n"), to: path)
            XCTAssertEqual(try exportLines(path), [header2, line])
            var stored: [LifecycleEvent] = []
            try Trace(path: path).forEachEvent { _, e in stored.append(e); return true }
            XCTAssertEqual(stored, try events(header2 + "\n" + line), line)
        }
    }

    func testAVersion2HeaderWithoutVersion2DataStillExportsVersion2() throws {
        let folder = TemporaryFolder()
        let line = #"{"event":"mark","t":0,"label":"x"}"#
        for body in [line + "\n", ""] {
            let path = folder.file("t.lmdb")
            try TraceInterchange.importJSONLines(from: folder.write("in.jsonl", header2 + "\n" + body), to: path)
            XCTAssertEqual(try exportLines(path), body.isEmpty ? [header2] : [header2, line])
            XCTAssertEqual(try meta(path, "layout"), 3)
        }
    }

    func testVersion1RecordsAreStoredAsLayout1StoresThem() throws {
        // An event without version-2 data encodes without the extension flag and is
        // readable by the layout-1 reader's rules; one with it sets the flag.
        var symbols = SymbolTable()
        var w = ByteWriter()
        let plain = LifecycleEvent(t: 4, .write(key: "k", scope: .app, window: "w", base: 1))
        XCTAssertFalse(EventCodec.encode(plain, into: &w, symbols: &symbols))
        XCTAssertEqual(w.bytes.first, EventCodec.Tag.write.rawValue)
        XCTAssertEqual(w.bytes, [7, 8, 1, 2, 2, 2, 0])
        var w2 = ByteWriter()
        var withProcess = plain
        withProcess.process = "p"
        XCTAssertTrue(EventCodec.encode(withProcess, into: &w2, symbols: &symbols))
        XCTAssertEqual(w2.bytes, [7 | 0x80, 8, 1, 2, 2, 2, 0, 3, 0])
        // A new scope needs version 2 but no extension.
        var w3 = ByteWriter()
        XCTAssertTrue(EventCodec.encode(LifecycleEvent(t: 0, .write(key: "k", scope: .group)), into: &w3, symbols: &symbols))
        XCTAssertEqual(w3.bytes, [7, 0, 1, 4, 0, 0, 0])
    }

    func testAppendingVersion2DataToALayout1TraceRaisesItsLayoutInTheSameTransaction() throws {
        // A layout-1 trace written by an earlier version (traces/stored/): appended to, it keeps
        // records without checksums, and moves to layout 2, not 3, with its first version-2 data.
        let folder = TemporaryFolder()
        let path = folder.file("t.lmdb")
        try FileManager.default.copyItem(atPath: "\(repositoryRoot)/traces/stored/macos-editor-quit.lmdb", toPath: path)
        let writer = try TraceWriter(path: path)
        try writer.append(try events(launch()).map { var e = $0; e.t = 10_000_000; return e })
        XCTAssertEqual(try meta(path, "layout"), 1)
        XCTAssertEqual(writer.formatVersion, 1)
        try writer.append([LifecycleEvent(t: 10_000_005, .kill(reason: "harness", signal: 9, by: "xcuitest"))])
        XCTAssertEqual(writer.formatVersion, 2)
        XCTAssertEqual(try meta(path, "layout"), 2)
        XCTAssertEqual(try meta(path, "trace-version"), 2)
        let lines = try exportLines(path)
        XCTAssertEqual(lines.first, header2)
        XCTAssertEqual(lines.last, #"{"event":"kill","t":10000005,"reason":"harness","signal":9,"by":"xcuitest"}"#)
        // Reopened, the writer knows the version.
        XCTAssertEqual(try TraceWriter(path: path).formatVersion, 2)
    }

    func testRecordingAStreamKeepsItsVersionAndAContinuationOfAVersion2TraceIsReadAsVersion2() throws {
        let folder = TemporaryFolder()
        let path = folder.file("rec.lmdb")
        let first = [header2, #"{"event":"launch","t":0,"platform":"iOS","scenes":[]}"#]
        var summary = try TraceInterchange.record(from: folder.write("a.jsonl", first.joined(separator: "\n") + "\n"), to: path) { XCTFail("\($0)") }
        XCTAssertEqual(summary.accepted, 1)
        XCTAssertEqual(try exportLines(path), first)
        // No header: it continues a version-2 trace, so its version-2 members are read.
        let more = #"{"event":"kill","t":5,"process":"com.example.app","reason":"user"}"#
        summary = try TraceInterchange.record(from: folder.write("b.jsonl", more + "\n"), to: path) { XCTFail("\($0)") }
        XCTAssertEqual(summary.accepted, 1)
        XCTAssertEqual(try exportLines(path), first + [more])
        // A version-1 trace continued without a header stays version 1: `process` stays an extra member.
        let v1 = folder.file("v1.lmdb")
        _ = try TraceInterchange.record(from: folder.write("c0.jsonl", launch() + "\n"), to: v1) { XCTFail("\($0)") }
        _ = try TraceInterchange.record(from: folder.write("c.jsonl", #"{"event":"mark","t":1,"process":"x","label":"m"}"# + "\n"), to: v1) { XCTFail("\($0)") }
        // A new trace recorded without a header that uses `process` is refused: it needs version 2 (issue 22).
        var refused: [LifecycleLogError] = []
        _ = try TraceInterchange.record(from: folder.write("d.jsonl", launch() + "\n" + #"{"event":"mark","t":1,"process":"x","label":"m"}"# + "\n"),
                                        to: folder.file("new.lmdb")) { refused.append($0) }
        XCTAssertEqual(refused.map(\.line), [2])
        XCTAssertEqual(try exportLines(v1).first, header1)
        XCTAssertEqual(try exportLines(v1).last, #"{"event":"mark","t":1,"label":"m","process":"x"}"#)
    }

    func testTheRecorderRecordsAKillIntoATraceFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("rec.lmdb")
        let recorder = LifecycleRecorder(sink: try TraceFileSink(path: path), durability: .batched(maxDelayMilliseconds: 10_000, maxEvents: 1000),
                                         clock: { 0 })
        recorder.launch(platform: .iOS, scenes: [], debugger: true, harness: "xcuitest", process: "com.example.app")
        recorder.save(keys: ["k"], stage: .begin, id: "s")
        recorder.kill(reason: "harness", signal: 9, by: "runner", process: "com.example.app")
        // The kill committed before returning, like terminate.
        var stored: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, e in stored.append(e); return true }
        XCTAssertEqual(stored.map(\.kind), [
            .launch(LifecycleEvent.Launch(platform: .iOS, scenes: [], debugger: true, harness: "xcuitest")),
            .save(keys: ["k"], stage: .begin, id: "s"),
            .kill(reason: "harness", signal: 9, by: "runner"),
        ])
        XCTAssertEqual(stored.map(\.process), ["com.example.app", nil, "com.example.app"])
        try recorder.close()
    }

    func testCommittedStoredTracesKeepTheirVersionAndExportAsBefore() throws {
        let folder = "\(repositoryRoot)/traces/stored"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".lmdb") }
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let path = "\(folder)/\(name)"
            // The group-widget traces (layouts 2 and 3) hold version-2 data; the older ones do not.
            let version = name.hasPrefix("group-widget") ? 2 : 1
            XCTAssertEqual(try Trace(path: path).formatVersion, version, name)
            XCTAssertEqual(try exportLines(path).first, version == 2 ? header2 : header1, name)
        }
    }

    // MARK: Replay plumbing

    func testTheReplayFormCarriesTheVersion2FieldsFromBothPaths() throws {
        let folder = TemporaryFolder()
        let parsed = try events(([header2] + v2Lines).joined(separator: "\n"))
        let path = folder.file("v2.lmdb")
        try TraceWriter(path: path, sharing: .exclusive).append(parsed)
        let trace = try Trace(path: path)
        var stored: [(ReplayEvent, ReplayExtra?)] = []
        var symbols: [String] = []
        try trace.decodeBatches { batch in
            symbols = batch.symbols
            for e in batch.events { stored.append((e, e.extraIndex == ReplayEvent.noExtra ? nil : batch.extras[Int(e.extraIndex)])) }
            return true
        }
        var names = NameTable()
        names.adopt(symbols)
        XCTAssertEqual(stored.count, parsed.count)
        for ((decoded, decodedExtra), event) in zip(stored, parsed) {
            var extra: ReplayExtra?
            let expected = ReplayEvent(event, names: &names, extra: &extra)
            XCTAssertEqual(decoded.kind, expected.kind, "\(event)")
            XCTAssertEqual(decoded.process, expected.process, "\(event)")
            XCTAssertEqual(decoded.name, expected.name, "\(event)")
            XCTAssertEqual(decoded.saveStage, expected.saveStage, "\(event)")
            XCTAssertEqual(decoded.scope, expected.scope, "\(event)")
            XCTAssertEqual(decoded.activityState, expected.activityState, "\(event)")
            XCTAssertEqual(decodedExtra?.document, extra?.document, "\(event)")
            XCTAssertEqual(decodedExtra?.kill?.signal, extra?.kill?.signal, "\(event)")
            XCTAssertEqual(decodedExtra?.kill?.by, extra?.kill?.by, "\(event)")
            XCTAssertEqual(decodedExtra?.launch?.debugger, extra?.launch?.debugger, "\(event)")
            XCTAssertEqual(decodedExtra?.launch?.harness, extra?.launch?.harness, "\(event)")
            XCTAssertEqual(decodedExtra?.launch?.activation, extra?.launch?.activation, "\(event)")
            XCTAssertEqual(decodedExtra?.launch?.isPrewarm, extra?.launch?.isPrewarm, "\(event)")
        }
        XCTAssertEqual(names[stored[0].0.process], "com.example.notes")
        XCTAssertEqual(stored[1].0.process, ReplayEvent.mainProcess)
        XCTAssertEqual(names[stored[16].0.name], "harness")
        XCTAssertEqual(stored[10].0.saveStage, .begin)
        XCTAssertEqual(names[stored[10].0.name], "s1")
        XCTAssertEqual(stored[12].0.name, ReplayEvent.noName)
        XCTAssertEqual(names[stored[5].1!.document], "file:///a.note")
        XCTAssertEqual(names[stored[0].1!.launch!.harness], "xcuitest")
        XCTAssertEqual(stored[1].1!.launch!.harness, ReplayEvent.noName)
        XCTAssertEqual(stored[17].1!.kill!.by, ReplayEvent.noName)
        XCTAssertEqual(names[stored[16].1!.kill!.by], "runner")
        XCTAssertLessThanOrEqual(MemoryLayout<ReplayLaunch>.size, 64, "the launch's new fields are a few bytes")
        XCTAssertEqual(MemoryLayout<ReplayEvent>.stride, 40, "the replay form stays five words")
        // Replaying it neither crashes nor refuses it, from either form.
        XCTAssertNoThrow(try Replayer.replay(path))
        XCTAssertNoThrow(try Replayer.replay(folder.write("v2.jsonl", ([header2] + v2Lines).joined(separator: "\n") + "\n")))
    }
}
