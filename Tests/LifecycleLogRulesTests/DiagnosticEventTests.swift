import XCTest
@testable import LifecycleLogRules

/// The `diagnostic` event kind (issue 29, trace-format.md section 5) in the rules: it changes nothing
/// but its own `unexpected-callback-order` finding, and version 1 reads it too. (Round trips through a
/// trace file: LifecycleLogTests' `DiagnosticEventTests`.)
final class DiagnosticEventTests: XCTestCase {
    private let header2 = #"{"format":"lifecycle-trace","version":2}"#
    private let launch = #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#

    /// A diagnostic changes nothing: a trace with one replays to the same state and the same other
    /// findings as without it, before a launch and in a run alike (no event-before-launch).
    func testADiagnosticChangesNothingWhereverItStands() throws {
        let body = [launch,
                    #"{"event":"open","t":1,"window":"w1","scene":"main"}"#,
                    #"{"event":"write","t":2,"key":"draft","scope":"scene","window":"w1"}"#,
                    #"{"event":"phase","t":3,"phase":"background","window":"w1"}"#]
        func replay(_ lines: [String]) throws -> [Finding] {
            var reducer = LifecycleReducer()
            for (i, e) in try events(([header2] + lines).joined(separator: "\n")).enumerated() { reducer.apply(seq: UInt64(i + 1), e) }
            reducer.finish()
            return reducer.findings
        }
        let without = try replay(body)
        XCTAssertFalse(without.isEmpty)
        for at in 0...body.count {
            var lines = body
            lines.insert(#"{"event":"diagnostic","t":"# + "\(max(at - 1, 0))" + #","check":"A2","message":"m"}"#, at: at)
            let with = try replay(lines)
            XCTAssertEqual(with.filter { $0.rule == .unexpectedCallbackOrder }.map(\.seq), [UInt64(at + 1)])
            XCTAssertEqual(with.filter { $0.rule != .unexpectedCallbackOrder }.map(\.rule), without.map(\.rule), "diagnostic at \(at)")
        }
    }

    /// A version 1 trace reads a diagnostic too (the kind is additive: it was an unknown kind there).
    func testAVersion1TraceReadsADiagnostic() throws {
        let e = try events(#"{"format":"lifecycle-trace","version":1}"# + "\n" + #"{"event":"diagnostic","t":5,"check":"A2","message":"m","process":"p"}"#)
        XCTAssertEqual(e.first?.kind, .diagnostic(check: "A2", message: "m"))
        XCTAssertEqual(e.first?.extraFields.map(\.name), ["process"], "process is an unknown member in version 1")
    }
}
