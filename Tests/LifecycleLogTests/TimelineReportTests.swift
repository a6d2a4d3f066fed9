import Foundation
import XCTest
@testable import LifecycleLog

/// The HTML report: hostile strings, which findings are placed, and the page's data.
final class TimelineReportTests: XCTestCase {
    private let hostile = "\(repositoryRoot)/traces/report/hostile-strings.jsonl"

    /// The JSON inside `<script type="application/json" id="timeline-data">`.
    private func dataBlock(_ html: String) throws -> String {
        let open = #"<script type="application/json" id="timeline-data">"#
        let start = try XCTUnwrap(html.range(of: open)).upperBound
        let end = try XCTUnwrap(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return String(html[start..<end])
    }

    private func parse(_ json: String) throws -> JSONValue {
        var bytes = Array(json.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buf in try JSONParser.parse(UnsafeBufferPointer(buf)) }
    }

    private func member(_ name: String, of value: JSONValue) throws -> JSONValue {
        guard case .object(let members) = value else { throw XCTSkip("not an object") }
        return try XCTUnwrap(members.first { $0.name == name }?.value, "no member \(name)")
    }

    func testScriptSafeEscapesEveryCharacterThatCouldEndOrConfuseTheScriptBlock() {
        let escaped = Timeline.scriptSafe("[\"<!--<script></script>&\u{2028}\u{2029}é→\"]")
        XCTAssertEqual(escaped, #"["\u003c!--\u003cscript\u003e\u003c/script\u003e\u0026\u2028\u2029é→"]"#)
    }

    func testHostileStringsInTheTraceAndItsFileNameStayInsideTheDataBlockAndRoundTrip() throws {
        let folder = TemporaryFolder()
        let named = folder.file("<!--<script>&\u{2028}.jsonl")
        try FileManager.default.copyItem(atPath: hostile, toPath: named)
        var configuration = RuleConfiguration()
        configuration.explore = true
        let html = try Timeline.build(named, configuration: configuration).html()
        let block = try dataBlock(html)
        for raw in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            XCTAssertFalse(block.contains(raw), "the data block holds a raw \(raw.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Exactly one data block and one script, each closed where the page closes it.
        XCTAssertEqual(html.components(separatedBy: "</script>").count - 1, 2)
        XCTAssertFalse(html.contains("<!--"), "no comment may open anywhere in the page")
        // The escapes mean the same strings: the parsed data gives back what the trace holds.
        let data = try parse(block)
        XCTAssertEqual(try member("trace", of: data), .string(named))
        guard case .array(let labels) = try member("labels", of: data) else { return XCTFail("labels") }
        XCTAssertTrue(labels.contains(.string("<!--<script w1 · <!--<script")), "\(labels)")
        XCTAssertTrue(labels.contains(.string("s1 </script><script>alert(2)</script> · set</script>&amp;")), "\(labels)")
        guard case .array(let findings) = try member("findings", of: data) else { return XCTFail("findings") }
        XCTAssertEqual(findings.count, 2)
        XCTAssertTrue(block.contains(#"\u003cb\u003ebold\u003c/b\u003e \u0026 \u2028"#))
        // The title is HTML-escaped text.
        XCTAssertTrue(html.contains("<title>&lt;!--&lt;script&gt;&amp;\u{2028}.jsonl · lifecycle timeline</title>"))
    }
}
