import XCTest
@testable import LifecycleLog
import LifecycleLogRecorder

/// SARIF fingerprints identify a finding by rule, scenes, keys and scopes, never by window ids
/// (rules.md section 5): the same bug recorded on two devices shares one fingerprint.
final class FingerprintAcrossDevicesTests: XCTestCase {
    /// The fingerprints of `jsonl`'s findings, by rule, from `replay --format sarif`.
    private func fingerprints(_ jsonl: String) throws -> [String: [String]] {
        let folder = TemporaryFolder()
        let path = folder.write("t.jsonl", jsonl)
        let result = try replay(path, "--format", "sarif")
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        var byRule: [String: [String]] = [:]
        for r in results {
            let rule = try XCTUnwrap(r["ruleId"] as? String)
            byRule[rule, default: []].append(try XCTUnwrap((r["partialFingerprints"] as? [String: String])?[FindingFingerprints.key]))
        }
        return byRule
    }

    /// One session on one device: window ids are UUIDs, and how many runs came before differs.
    private func session(window: String, other: String, earlierRuns: Int = 0, scene: String = "main", key: String = "draft",
                         sharedKey: String = "notes", scope: String = "shared") -> String {
        var lines = [#"{"format":"lifecycle-trace","version":2}"#]
        var t = 0
        func add(_ line: String) { lines.append(line); t += 10 }
        let launch = #"{"event":"launch","t":T,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup"}]}"#
        for _ in 0..<earlierRuns {
            add(launch.replacingOccurrences(of: "T", with: "\(t)"))
            add(#"{"event":"terminate","t":\#(t)}"#)
        }
        add(launch.replacingOccurrences(of: "T", with: "\(t)"))
        add(#"{"event":"open","t":\#(t),"window":"\#(window)","scene":"\#(scene)"}"#)
        add(#"{"event":"open","t":\#(t),"window":"\#(other)","scene":"\#(scene)"}"#)
        add(#"{"event":"phase","t":\#(t),"phase":"inactive"}"#)
        add(#"{"event":"phase","t":\#(t),"phase":"active"}"#)
        // Two windows of one model: the second writes over the first's change unseen (lost-update).
        add(#"{"event":"write","t":\#(t),"window":"\#(window)","key":"\#(sharedKey)","scope":"\#(scope)"}"#)
        add(#"{"event":"write","t":\#(t),"window":"\#(other)","key":"\#(sharedKey)","scope":"\#(scope)"}"#)
        add(#"{"event":"save","t":\#(t)}"#)
        // A draft that is never saved before its window closes (unsaved-dismiss).
        add(#"{"event":"write","t":\#(t),"window":"\#(window)","key":"\#(key)","scope":"scene"}"#)
        add(#"{"event":"dismiss","t":\#(t),"window":"\#(window)"}"#)
        // The app crashes while active (unclean-exit at the next launch).
        add(launch.replacingOccurrences(of: "T", with: "\(t)"))
        return lines.joined(separator: "\n") + "\n"
    }

    func testTheSameBugInDifferentlyNamedWindowsAndRunsHasOneFingerprint() throws {
        let phone = try fingerprints(session(window: "6F1C0A52-8C1E-4C4B-9C4B-2B1D7E3A9F01", other: "A9D3"))
        let pad = try fingerprints(session(window: "w1", other: "w2", earlierRuns: 3))
        XCTAssertEqual(Set(phone.keys), ["lost-update", "unsaved-dismiss", "unclean-exit"])
        XCTAssertEqual(phone, pad, "window ids, seqs and run numbers must not change a fingerprint")
    }

    func testADifferentKeySceneOrScopeHasAnotherFingerprint() throws {
        let base = try fingerprints(session(window: "w1", other: "w2"))
        let otherKey = try fingerprints(session(window: "w1", other: "w2", key: "selection", sharedKey: "library"))
        XCTAssertNotEqual(base["unsaved-dismiss"], otherKey["unsaved-dismiss"])
        XCTAssertNotEqual(base["lost-update"], otherKey["lost-update"])
        let otherScene = try fingerprints(session(window: "w1", other: "w2", scene: "note"))
        XCTAssertNotEqual(base["unsaved-dismiss"], otherScene["unsaved-dismiss"])
        XCTAssertNotEqual(base["lost-update"], otherScene["lost-update"])
        let otherScope = try fingerprints(session(window: "w1", other: "w2", scope: "app"))
        XCTAssertNotEqual(base["lost-update"], otherScope["lost-update"])
        XCTAssertEqual(base["unsaved-dismiss"], otherScope["unsaved-dismiss"], "the draft is the same bug")
    }

    func testTheSubjectLeavesWindowIdsOutAndFindingsCompareWithoutIt() throws {
        let findings = try replayFindings(session(window: "6F1C0A52", other: "A9D3"))
        let dismiss = try XCTUnwrap(findings.first { $0.rule == .unsavedDismiss })
        XCTAssertEqual(dismiss.subject, FindingSubject(scenes: ["main"], keys: ["scene:draft"]))
        XCTAssertTrue(dismiss.message.contains("6F1C0A52"), "the message still names the window for people")
        var copy = dismiss
        copy.subject = nil
        XCTAssertEqual(copy, dismiss)
    }
}
