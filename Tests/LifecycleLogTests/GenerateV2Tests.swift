import XCTest
@testable import LifecycleLog
import LifecycleLogRecorder

/// `replay generate --format-version 2` (``TraceGenerator`` with format version 2).
final class GenerateV2Tests: XCTestCase {
    private func lines(_ options: TraceGenerator.Options) -> [String] {
        var lines: [String] = []
        TraceGenerator.generate(options) { lines.append($0.jsonLine) }
        return lines
    }

    func testTheSameSeedGivesTheSameVersion2TraceAndAnotherSeedAnother() {
        let a = lines(.init(events: 5_000, seed: 21, formatVersion: 2))
        XCTAssertEqual(a.count, 5_000)
        XCTAssertEqual(a, lines(.init(events: 5_000, seed: 21, formatVersion: 2)))
        XCTAssertNotEqual(a, lines(.init(events: 5_000, seed: 22, formatVersion: 2)))
        // A shorter trace is the start of a longer one with the same seed.
        XCTAssertEqual(Array(a.prefix(1_000)), lines(.init(events: 1_000, seed: 21, formatVersion: 2)))
    }

    func testFormatVersion1IsStillTheDefaultOfTheLibraryAndUnchanged() {
        // The benchmarks' traces: the first event of seed 42 with 6 windows, as every earlier release wrote it.
        let v1 = lines(.init(events: 3, seed: 42, windows: 6))
        XCTAssertEqual(v1, lines(.init(events: 3, seed: 42, windows: 6, formatVersion: 1)))
        XCTAssertFalse(v1.joined().contains("\"process\""))
        XCTAssertNotEqual(v1, lines(.init(events: 3, seed: 42, windows: 6, formatVersion: 2)))
        // 20,000 events of the benchmarks' options hash as the release before issue 19 wrote them
        // (FNV-1a 64 of the JSON Lines after the header; `replay generate … --format-version 1`).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var bytes = 0
        TraceGenerator.generate(.init(events: 20_000, seed: 42, windows: 6)) { event in
            for b in (event.jsonLine + "\n").utf8 {
                hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
                bytes += 1
            }
        }
        XCTAssertEqual(bytes, 1_306_095)
        XCTAssertEqual(hash, 0x4754_ae02_efe9_ab)
    }

    func testGeneratedVersion2TracesImportAndReplayAndUseEveryVersion2Feature() throws {
        let folder = TemporaryFolder()
        let jsonl = folder.file("g.jsonl"), lmdb = folder.file("g.lmdb")
        XCTAssertEqual(try replay("generate", "-o", jsonl, "--events", "60000", "--seed", "5").status, 0)
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\"format\":\"lifecycle-trace\",\"version\":2}\n"), "the CLI's default is version 2")
        // Valid: it imports (every line checked) and replays without an input error.
        XCTAssertEqual(try replay("import", jsonl, "-o", lmdb).status, 0)
        let direct = try replay(jsonl, "--format", "json")
        XCTAssertEqual(direct.status, 0)
        // The trace file replays to the same findings (document keys made after the first
        // batch of 1,024 events once crashed a stored replay: NameTable.adopt dropped them).
        let stored = try replay(lmdb, "--format", "json")
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(stored.stdout.replacingOccurrences(of: "g.lmdb", with: "g.jsonl"), direct.stdout)
        let export = try replay("export", lmdb)
        XCTAssertEqual(export.stdout, text, "the trace file gives back exactly the JSON Lines trace")

        var seen: Set<String> = []
        for line in text.split(separator: "\n").dropFirst() {
            let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let kind = try XCTUnwrap(event["event"] as? String)
            if let process = event["process"] as? String { seen.insert("process \(process)") }
            switch kind {
            case "launch":
                if let reason = event["reason"] as? String { seen.insert("launch \(reason)") }
                if event["debugger"] as? Bool == true { seen.insert("debugger") }
                if event["harness"] != nil { seen.insert("harness") }
                if let activation = event["activation"] as? String { seen.insert("activation \(activation)") }
                for scene in event["scenes"] as? [[String: Any]] ?? [] { seen.insert("scene \(scene["kind"] as? String ?? "")") }
            case "kill":
                seen.insert("kill \(event["reason"] as? String ?? "")")
            case "write", "read":
                seen.insert("scope \(event["scope"] as? String ?? "")")
                if event["document"] != nil { seen.insert("document field") }
            case "save":
                if let stage = event["stage"] as? String { seen.insert("save \(stage)\(event["id"] == nil ? " without id" : "")") }
            case "activity":
                seen.insert("activity \(event["state"] as? String ?? "")")
            case "open":
                if event["restored"] as? Bool == true { seen.insert("restored") }
                if case let value as String = event["value"], value.hasPrefix("file://") { seen.insert("titled document") }
            case "delegate":
                if event["callback"] as? String == "willTerminate" { seen.insert("willTerminate") }
            default:
                break
            }
        }
        let expected: Set<String> = [
            "process com.example.notes.widget", "process com.example.notes.share", "process com.example.NotesUITests.xctrunner",
            "launch prewarm", "launch background", "debugger", "harness", "activation accessory",
            "scene DocumentGroup", "scene ImmersiveSpace", "scene MenuBarExtra", "scene Settings",
            "kill user", "kill harness", "kill debugger", "kill watchdog", "kill jetsam", "kill crash",
            "scope group", "scope document", "document field", "save begin", "save end", "save begin without id", "save end without id",
            "activity expire", "restored", "titled document", "willTerminate",
        ]
        XCTAssertEqual(expected.subtracting(seen), [], "version 2 features missing from a generated trace")
        XCTAssertTrue(seen.contains { $0.hasPrefix("kill ") && !["user", "harness", "debugger", "watchdog", "jetsam", "crash"].contains($0.dropFirst(5)) },
                      "a kill of an unknown reason")
    }

    func testAVersion2SessionWithoutBugsGivesNoFindings() throws {
        // Long, multi-process, every kind of launch and end: a clean session must be silent.
        for seed in [1, 2, 3] as [UInt64] {
            var reducer = LifecycleReducer(configuration: RuleConfiguration())
            var seq: UInt64 = 0
            TraceGenerator.generate(.init(events: 20_000, seed: seed, bugRate: 0, formatVersion: 2)) { event in
                seq += 1
                reducer.apply(seq: seq, event)
            }
            reducer.finish()
            XCTAssertEqual(reducer.findings.map { "\($0.rule.rawValue) at seq \($0.seq)" }, [], "seed \(seed)")
        }
    }

    func testAVersion2SessionWithBugsGivesFindingsOfManyRules() throws {
        var reducer = LifecycleReducer(configuration: RuleConfiguration())
        var seq: UInt64 = 0
        TraceGenerator.generate(.init(events: 40_000, seed: 3, bugRate: 300, formatVersion: 2)) { event in
            seq += 1
            reducer.apply(seq: seq, event)
        }
        reducer.finish()
        let rules = Set(reducer.findings.map(\.rule))
        for rule: Rule in [.lostUpdate, .unsavedAtExit, .unfinishedSave, .missedBackgroundSave, .uncleanExit, .slowLaunch, .duplicateWindow,
                           .eventBeforeLaunch, .phaseSkip, .unsupportedScene, .launchCrashLoop] {
            XCTAssertTrue(rules.contains(rule), "no \(rule.rawValue)")
        }
    }

    /// One window allowed: with it open, the simulated app edits instead of opening another
    /// (opening and dismissing had called each other until the stack overflowed).
    func testAVersion2TraceWithOneWindowAllowedIsGenerated() {
        let generated = lines(.init(events: 5_000, seed: 3, windows: 1, formatVersion: 2))
        XCTAssertEqual(generated.count, 5_000)
        XCTAssertTrue(generated.contains { $0.contains(#""event":"open""#) })
    }

    func testTheCommandRefusesAnUnknownFormatVersion() throws {
        let folder = TemporaryFolder()
        let result = try replay("generate", "-o", folder.file("g.jsonl"), "--events", "5", "--format-version", "3")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--format-version must be 1 or 2"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("g.jsonl")))
    }
}
