import XCTest
@testable import LifecycleLog
import LifecycleLogRecorder
import LifecycleLogRules

/// The `diagnostic` event kind (issue 29, trace-format.md section 5): what the recorder writes when
/// Apple's callbacks contradict spec/apple-order.md, read the same from JSON Lines and from a trace
/// file, round-tripped exactly, and reported by `unexpected-callback-order`. (What a diagnostic does
/// to the rules, and its reading in version 1: LifecycleLogRulesTests' `DiagnosticEventTests`.)
final class DiagnosticEventTests: XCTestCase {
    private let header2 = #"{"format":"lifecycle-trace","version":2}"#
    private let launch = #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#

    /// Imports `lines` (after a version 2 header) into a trace file and returns what export gives back,
    /// the events the file holds, and the rules of `replay` on the file and on the JSON Lines.
    private func roundTrip(_ lines: [String]) throws -> (exported: [String], stored: [LifecycleEvent], fileRules: [Rule], jsonRules: [Rule]) {
        let folder = TemporaryFolder()
        let text = ([header2] + lines).joined(separator: "\n") + "\n"
        let input = folder.write("in.jsonl", text)
        let path = folder.file("t.lmdb")
        try TraceInterchange.importJSONLines(from: input, to: path)
        var exported: [String] = []
        try TraceInterchange.exportJSONLines(try Trace(path: path)) { exported.append(String($0.dropLast())) }
        var stored: [LifecycleEvent] = []
        try Trace(path: path).forEachEvent { _, e in stored.append(e); return true }
        return (exported, stored, try Replayer.replay(path).findings.map(\.rule), try Replayer.replay(input).findings.map(\.rule))
    }

    func testADiagnosticRoundTripsAndIsReportedFromBothPaths() throws {
        let line = #"{"event":"diagnostic","t":5,"process":"com.example.widget","check":"W7","message":"window w2 closed before it opened","window":"w2","x-extra":1}"#
        let result = try roundTrip([launch, line])
        XCTAssertEqual(result.exported, [header2, launch, line])
        XCTAssertEqual(result.stored.last?.kind, .diagnostic(check: "W7", message: "window w2 closed before it opened", window: "w2"))
        XCTAssertEqual(result.stored.last?.extraFields.map(\.name), ["x-extra"])
        XCTAssertEqual(result.stored.last?.process, "com.example.widget")
        XCTAssertEqual(result.fileRules, [.unexpectedCallbackOrder])
        XCTAssertEqual(result.jsonRules, [.unexpectedCallbackOrder])
    }

    func testMembersInAnotherOrderAreTheSameDiagnostic() throws {
        let written = #"{"event":"diagnostic","t":5,"message":"m","x":true,"check":"A2"}"#
        let result = try roundTrip([launch, written])
        XCTAssertEqual(result.exported.last, #"{"event":"diagnostic","t":5,"check":"A2","message":"m","x":true}"#)
        XCTAssertEqual(result.fileRules, [.unexpectedCallbackOrder])
    }

    /// Anything else named `diagnostic` stays the unknown kind it was before the kind existed (no
    /// new input error: the kind is additive), the same from both paths, and exports as written.
    func testAnEventNamedDiagnosticThatDoesNotFitStaysUnknown() throws {
        for line in [#"{"event":"diagnostic","t":5,"check":"A2"}"#,
                     #"{"event":"diagnostic","t":5,"check":"A2","message":7}"#,
                     #"{"event":"diagnostic","t":5,"check":"A2","message":"m","window":null}"#] {
            let result = try roundTrip([launch, line])
            XCTAssertEqual(result.exported.last, line)
            XCTAssertEqual(result.stored.last?.kind, .unknown(name: "diagnostic"), line)
            XCTAssertEqual(result.fileRules, [.unknownEvent], line)
            XCTAssertEqual(result.jsonRules, [.unknownEvent], line)
        }
    }
}
