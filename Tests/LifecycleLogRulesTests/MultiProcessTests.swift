import XCTest
@testable import LifecycleLogRules

/// Trace format 2: every process has its own runs, windows, phases and keys; `group` keys are
/// one value across processes, and `lost-update` compares their writers across processes.
final class MultiProcessTests: XCTestCase {
    private let header = #"{"format":"lifecycle-trace","version":2}"#
    private let widget = #""process":"com.example.widget""#
    private func trace(_ lines: String...) -> String { ([header] + lines).joined(separator: "\n") }

    func testTheSameWindowIdInTwoProcessesIsTwoWindows() {
        // Without per-process windows the second open would be a duplicate of an open id,
        // and the dismiss in the widget would close the app's window.
        assertFindings(trace(
            launch(),
            #"{"event":"launch","t":1,\#(widget),"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#,
            #"{"event":"open","t":2,"window":"w1","scene":"main"}"#,
            #"{"event":"open","t":3,\#(widget),"window":"w1","scene":"main"}"#,
            #"{"event":"dismiss","t":4,\#(widget),"window":"w1"}"#,
            #"{"event":"phase","t":5,"window":"w1","phase":"active"}"#,
            #"{"event":"terminate","t":6}"#), [])
    }

    func testEachProcessHasItsOwnRunForEventBeforeLaunch() {
        assertFindings(trace(
            launch(),
            #"{"event":"write","t":1,\#(widget),"key":"k","scope":"app"}"#,
            #"{"event":"terminate","t":2}"#), [(.eventBeforeLaunch, 2)])
    }

    func testAppKeysOfTwoProcessesAreTwoKeysButGroupKeysAreOne() throws {
        let app = #"{"event":"open","t":2,"window":"w1","scene":"main"}"#
        let widgetLaunch = #"{"event":"launch","t":3,\#(widget),"platform":"iOS","scenes":[],"reason":"background"}"#
        // The widget writes both keys; the app then writes both from what it saw at its open.
        let jsonl = trace(launch(), app, widgetLaunch,
                          #"{"event":"write","t":4,\#(widget),"key":"theme","scope":"app"}"#,
                          #"{"event":"write","t":5,\#(widget),"key":"pinned","scope":"group"}"#,
                          #"{"event":"write","t":6,"window":"w1","key":"theme","scope":"app"}"#,
                          #"{"event":"write","t":7,"window":"w1","key":"pinned","scope":"group"}"#,
                          #"{"event":"save","t":8}"#, #"{"event":"save","t":9,\#(widget)}"#,
                          #"{"event":"terminate","t":10}"#)
        let findings = try replayFindings(jsonl)
        XCTAssertEqual(findings.map { "\($0.seq) \($0.rule.rawValue) \($0.related)" }, ["7 lost-update [2, 5]"])
        XCTAssertTrue(findings[0].message.contains(#"process "com.example.widget""#), findings[0].message)
        XCTAssertTrue(findings[0].message.hasPrefix("Window w1 of the app"), findings[0].message)
    }

    func testAGroupWriteAfterAReadOfTheOtherProcessesChangeIsNotLost() {
        assertFindings(trace(
            launch(), #"{"event":"open","t":2,"window":"w1","scene":"main"}"#,
            #"{"event":"launch","t":3,\#(widget),"platform":"iOS","scenes":[],"reason":"background"}"#,
            #"{"event":"write","t":4,\#(widget),"key":"pinned","scope":"group"}"#,
            #"{"event":"read","t":5,"window":"w1","key":"pinned","scope":"group"}"#,
            #"{"event":"write","t":6,"window":"w1","key":"pinned","scope":"group"}"#,
            #"{"event":"save","t":7}"#, #"{"event":"save","t":8,\#(widget)}"#,
            #"{"event":"terminate","t":9}"#), [])
    }

    func testFindingsOfAnotherProcessNameIt() throws {
        let findings = try replayFindings(trace(#"{"event":"kill","t":1,\#(widget),"reason":"user"}"#))
        XCTAssertEqual(findings.map(\.rule), [.eventBeforeLaunch])
        XCTAssertTrue(findings[0].message.hasSuffix(#"(In process "com.example.widget".)"#), findings[0].message)
    }

    func testAGroupKeyInAVersion1TraceIsRefusedNamingTheLineAndTheHeader() {
        let jsonl = [#"{"format":"lifecycle-trace","version":1}"#, launch(), #"{"event":"write","t":10,"key":"pinned","scope":"group"}"#].joined(separator: "\n")
        XCTAssertThrowsError(try events(jsonl)) { error in
            let error = error as? LifecycleLogError
            XCTAssertEqual(error?.code, .invalidInput)
            XCTAssertEqual(error?.line, 3)
            XCTAssertTrue(error?.message.contains(#""version":2"#) ?? false, "\(String(describing: error))")
        }
    }
}
