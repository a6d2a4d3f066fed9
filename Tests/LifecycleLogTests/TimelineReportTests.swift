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

/// Which findings a long trace's page places, and how the rest are counted.
final class TimelinePlacementTests: XCTestCase {
    func testEveryErrorIsPlacedWhenWarningsOverflowAndTheRestAreCountedPerStretch() throws {
        let folder = TemporaryFolder()
        let path = folder.file("busy.lmdb")
        try TraceInterchange.generate(.init(events: 60_000, seed: 3, bugRate: 50), to: path)
        var configuration = RuleConfiguration()
        configuration.explore = true
        let timeline = try Timeline.build(path, configuration: configuration, placedWarnings: 100, placedErrors: 20_000)
        let report = try Replayer.replay(path, configuration: configuration)
        XCTAssertGreaterThan(report.errors, 100)
        XCTAssertGreaterThan(report.warnings, 1000)
        let placedErrors = timeline.findings.filter { $0.finding.severity == .error }
        let placedWarnings = timeline.findings.filter { $0.finding.severity == .warning }
        XCTAssertEqual(placedErrors.count, report.errors, "every error is placed")
        XCTAssertEqual(placedErrors.map(\.finding), report.findings.filter { $0.severity == .error })
        XCTAssertEqual(placedWarnings.count, 100)
        // An error after the hundredth warning: the old first-N-by-seq placement would have dropped it.
        let lastPlacedWarning = try XCTUnwrap(placedWarnings.last).finding.seq
        XCTAssertTrue(placedErrors.contains { $0.finding.seq > lastPlacedWarning })
        // Nothing is lost: the counted ones add up, are warnings, and each stretch names real findings.
        XCTAssertEqual(timeline.aggregated.reduce(0) { $0 + $1.count }, report.warnings - 100)
        XCTAssertEqual(timeline.moreFindings, report.warnings - 100)
        XCTAssertTrue(timeline.aggregated.allSatisfy { $0.severity == .warning && $0.firstSeq <= $0.lastSeq && $0.start <= $0.end })
        let warningSeqs = Set(report.findings.filter { $0.severity == .warning }.map(\.seq))
        XCTAssertTrue(timeline.aggregated.allSatisfy { warningSeqs.contains($0.firstSeq) && warningSeqs.contains($0.lastSeq) })
        XCTAssertTrue(timeline.aggregated.allSatisfy { $0.firstSeq > lastPlacedWarning })
        // The page carries the counts and says how many were aggregated.
        let html = timeline.html()
        XCTAssertTrue(html.contains("\"more\":\(report.warnings - 100)"))
        XCTAssertTrue(html.contains("are aggregated into"))
    }

    func testErrorsAreCountedOnlyPastTheirOwnCap() throws {
        let folder = TemporaryFolder()
        let path = folder.file("busy.lmdb")
        try TraceInterchange.generate(.init(events: 20_000, seed: 4, bugRate: 50), to: path)
        let timeline = try Timeline.build(path, configuration: RuleConfiguration(), placedWarnings: 0, placedErrors: 10)
        XCTAssertEqual(timeline.findings.count, 10)
        XCTAssertTrue(timeline.findings.allSatisfy { $0.finding.severity == .error })
        XCTAssertEqual(timeline.aggregated.filter { $0.severity == .error }.reduce(0) { $0 + $1.count }, timeline.errors - 10)
        XCTAssertEqual(timeline.aggregated.filter { $0.severity == .warning }.reduce(0) { $0 + $1.count }, timeline.warnings)
    }

    func testTheAggregationStaysBoundedHoweverManyFindingsItCounts() {
        var aggregation = FindingAggregation()
        for seq in stride(from: UInt64(1), through: 3_000_000, by: 3) {
            aggregation.add(Finding(rule: seq % 2 == 0 ? .phaseSkip : .killExposure, severity: .warning, seq: seq, related: [], message: ""))
        }
        XCTAssertEqual(aggregation.total, 1_000_000)
        XCTAssertLessThanOrEqual(aggregation.counts.count, Int(FindingAggregation.maxStretches) * 2)
        XCTAssertEqual(aggregation.sorted.reduce(0) { $0 + $1.count.count }, 1_000_000)
        let sorted = aggregation.sorted
        XCTAssertEqual(sorted.first?.count.firstSeq, 1)
        XCTAssertEqual(sorted.map(\.key), sorted.map(\.key).sorted())
    }
}

/// A long trace's timeline is quantised to a grid; short phases must still show.
final class TimelineLevelOfDetailTests: XCTestCase {
    func testAQuantisedTimelineKeepsEachLanesPhasesCloseToTheExactOne() throws {
        let folder = TemporaryFolder()
        let path = folder.file("long.lmdb")
        try TraceInterchange.generate(.init(events: 30_000, seed: 9), to: path)
        let exact = try Timeline.build(path, configuration: RuleConfiguration(), placedWarnings: 5000, placedErrors: 20_000, exactLimit: .max)
        let grid = try Timeline.build(path)
        XCTAssertEqual(exact.buckets, 0)
        XCTAssertEqual(grid.buckets, Timeline.bucketCount)
        XCTAssertLessThan(grid.segments.count, exact.segments.count)
        let span = grid.endTime - grid.startTime
        for row in -1..<min(exact.rows, 3) {
            for phase in [LifecyclePhase.active, .inactive, .background] {
                let time = { (t: Timeline) in t.segments.filter { $0.row == row && $0.phase == phase }.reduce(0) { $0 + $1.end - $1.start } }
                XCTAssertEqual(time(grid) / span, time(exact) / span, accuracy: 0.05, "lane \(row), \(phase)")
            }
            // Within a lane, segments follow each other without overlapping.
            let lane = grid.segments.filter { $0.row == row }
            for (a, b) in zip(lane, lane.dropFirst()) { XCTAssertLessThanOrEqual(a.end, b.start + 1e-6, "lane \(row)") }
        }
    }
}

/// The page in a real browser (headless Chromium, when installed; `scripts/render-report` installs it).
final class BrowserRenderTests: XCTestCase {
    func testTheHostileFixtureRendersItsTimelineAndFindingsInChromium() throws {
        guard ["/usr/bin/chromium", "/usr/local/bin/chromium"].contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("chromium is not installed (apt-get install chromium, or run scripts/render-report once)")
        }
        let folder = TemporaryFolder()
        let png = folder.file("hostile.png")
        // Under a hostile file name too; the script's page check draws, zooms, and clicks a finding.
        let result = try runProgram("/usr/bin/env", [
            "REPLAY=\(replayExecutable)", "REPORT_NAME=<!--<script>&.jsonl",
            "\(repositoryRoot)/scripts/render-report", "traces/report/hostile-strings.jsonl", png, "2",
        ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("findings=2 axis-repeats=0/"), result.stdout)
        XCTAssertTrue(result.stdout.contains("highlighted=1"), result.stdout)
        XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0, 10_000)
    }
}

/// Trace format 2: an app and its extensions, each with its own lanes.
final class TimelineProcessTests: XCTestCase {
    private let clean = "\(repositoryRoot)/traces/rules/app-widget-share-extension-clean.jsonl"

    /// `(start, end, phase)` of one lane.
    private func lane(_ timeline: Timeline, _ process: Int, _ row: Int) -> [String] {
        timeline.segments.filter { $0.process == process && $0.row == row }.sorted { $0.start < $1.start }
            .map { "\(JSONWriter.number($0.start))-\(JSONWriter.number($0.end)) \($0.phase.rawValue)" }
    }

    func testEachProcessGetsItsOwnNamedLanesAndNoProcessEndsAnothersRun() throws {
        let timeline = try Timeline.build(clean)
        XCTAssertEqual(timeline.processes, ["", "com.example.notes.widget", "com.example.notes.share"])
        XCTAssertEqual(timeline.processNames, ["com.example.notes (app)", "com.example.notes.widget", "com.example.notes.share"])
        XCTAssertEqual(timeline.processRows, [1, 0, 1])
        XCTAssertEqual(timeline.rows, 2)
        // The widget's launch does not end the app's run; the widget's kill ends the widget's.
        XCTAssertFalse(timeline.marks.contains { $0.kind == .uncleanEnd }, "\(timeline.marks)")
        XCTAssertEqual(timeline.marks.filter { $0.row == -1 && [.launch, .terminate, .kill].contains($0.kind) }.map { "\($0.process) \($0.kind) \(JSONWriter.number($0.t))" },
                       ["0 launch 0", "1 launch 30", "1 kill 40", "2 launch 50", "2 terminate 57", "0 terminate 90"])
        // The app's window is drawn the whole time it is open, through the other processes' events.
        XCTAssertEqual(lane(timeline, 0, 0), ["10-20 inactive", "20-70 active", "70-80 inactive", "80-90 background"])
        XCTAssertEqual(lane(timeline, 0, -1), ["0-20 inactive", "20-70 active", "70-80 inactive", "80-90 background"])
        // The share extension's w1 is on its own lane, not on the app's w1.
        XCTAssertEqual(lane(timeline, 2, 0), ["51-52 inactive", "52-56 active"])
        XCTAssertTrue(timeline.segments.filter { $0.process == 2 && $0.row == 0 }.allSatisfy { timeline.labels[$0.label] == "w1 · compose" })
        // Each process's app phase is its own.
        XCTAssertEqual(lane(timeline, 1, -1), ["30-40 background"])
        XCTAssertEqual(lane(timeline, 2, -1), ["50-52 inactive", "52-56 active", "56-57 inactive"])
        // The page gets the process names, and every segment, mark and finding its process.
        let html = timeline.html()
        XCTAssertTrue(html.contains(#""processes":["com.example.notes (app)","com.example.notes.widget","com.example.notes.share"],"processRows":[1,0,1]"#))
    }

    func testAFindingIsPlacedOnTheLaneOfItsOwnProcess() throws {
        let timeline = try Timeline.build("\(repositoryRoot)/traces/rules/group-widget-lost-update.jsonl")
        let placed = try XCTUnwrap(timeline.findings.first { $0.finding.rule == .lostUpdate })
        XCTAssertEqual(placed.process, 0)
        XCTAssertEqual(placed.row, 0, "the app's w1 wrote the stale copy")
        XCTAssertFalse(timeline.marks.contains { $0.kind == .uncleanEnd })
    }

    func testAProcessThatOnlyMarksGetsALaneForItsMarksAndItsMarkDoesNotMoveTheAppsEnd() throws {
        // The test runner's mark at t 300 is not an event of the app: the app died after t 20.
        let timeline = try Timeline.build("\(repositoryRoot)/traces/rules/harness-real-crash.jsonl")
        XCTAssertEqual(timeline.processes, ["", "com.example.NotesUITests.xctrunner"])
        XCTAssertEqual(timeline.processRows, [1, 0], "the runner has no window rows, only its lane of marks")
        XCTAssertEqual(timeline.marks.filter { $0.kind == .uncleanEnd }.map(\.t), [20])
        XCTAssertEqual(timeline.marks.filter { $0.kind == .mark }.map { "\($0.process) \($0.row) \(timeline.labels[$0.label])" },
                       ["1 -1 tap Save"])
        // Also when the runner's mark comes first: it comes first on the page too.
        let first = try Timeline.build("\(repositoryRoot)/traces/rules/harness-xcuitest-terminate.jsonl")
        XCTAssertEqual(first.processes, ["com.example.NotesUITests.xctrunner", ""])
        XCTAssertEqual(first.processNames, ["com.example.NotesUITests.xctrunner", "app"])
        XCTAssertTrue(first.segments.allSatisfy { $0.process == 1 }, "the runner has no phases")
        XCTAssertTrue(first.marks.filter { $0.kind != .mark }.allSatisfy { $0.process == 1 })
    }

    func testASingleProcessTraceKeepsOneUnnamedGroupOfLanes() throws {
        let timeline = try Timeline.build("\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl")
        XCTAssertEqual(timeline.processes, [""])
        XCTAssertEqual(timeline.processRows, [timeline.rows])
        XCTAssertTrue(timeline.segments.allSatisfy { $0.process == 0 })
    }

    func testAnEmptyTracesPageDoesNotCallItCleanAndEveryNumberInTheDataIsJSON() throws {
        let folder = TemporaryFolder()
        let empty = folder.file("empty.jsonl")
        try "{\"format\":\"lifecycle-trace\",\"version\":2}\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let html = try Timeline.build(empty).html()
        XCTAssertEqual(try replay(empty, "--assert").status, 1, "an empty trace fails --assert, so the page must not call it clean")
        let page = try renderInChromium(html, check: ##"document.title = document.querySelector("#findings tbody").textContent;"##)
        XCTAssertTrue(page.hasPrefix("The trace has no events"), page)
        XCTAssertFalse(page.contains("nothing to fix"), page)
    }
}

/// What the window lanes are called on the page.
final class TimelineLaneLabelTests: XCTestCase {
    func testALaneThatHeldSeveralWindowsSaysSoAndEachProcessIsNamed() throws {
        let folder = TemporaryFolder()
        let path = folder.file("reuse.jsonl")
        try """
            {"format":"lifecycle-trace","version":2}
            {"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"doc","kind":"WindowGroup"}]}
            {"event":"open","t":1,"window":"a","scene":"doc"}
            {"event":"dismiss","t":2,"window":"a"}
            {"event":"open","t":3,"window":"b","scene":"doc"}
            {"event":"dismiss","t":4,"window":"b"}
            {"event":"open","t":5,"window":"c","scene":"doc"}
            {"event":"launch","t":6,"process":"com.example.share","platform":"macOS","scenes":[{"id":"doc","kind":"WindowGroup"}]}
            {"event":"open","t":7,"process":"com.example.share","window":"a","scene":"doc"}
            {"event":"terminate","t":10}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let timeline = try Timeline.build(path)
        XCTAssertEqual(timeline.processRows, [1, 1], "one row of the app held a, b and c in turn")
        let lanes = try renderInChromium(timeline.html(), check: #"document.title = document.getElementById("canvas").getAttribute("aria-label");"#)
        XCTAssertTrue(lanes.contains("window lanes: app:, a · doc +2 more, com.example.share:, a · doc; time axis:"), lanes)
    }
}

/// Renders `html` in headless Chromium with `check` (a script that sets `document.title`) run at load,
/// and returns the title; skips the test when Chromium is not installed.
func renderInChromium(_ html: String, check: String) throws -> String {
    guard let chromium = ["/usr/bin/chromium", "/usr/local/bin/chromium"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw XCTSkip("chromium is not installed (apt-get install chromium, or run scripts/render-report once)")
    }
    let folder = TemporaryFolder()
    let page = folder.file("page.html")
    try (html + "<script>window.addEventListener(\"load\", () => { \(check) });</script>\n").write(toFile: page, atomically: true, encoding: .utf8)
    let result = try runProgram(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900", "--dump-dom", "file://\(page)"])
    guard let start = result.stdout.range(of: "<title>"), let end = result.stdout.range(of: "</title>", range: start.upperBound..<result.stdout.endIndex) else {
        XCTFail("no title in the rendered page: \(result.stderr.suffix(2000))"); return ""
    }
    return String(result.stdout[start.upperBound..<end.lowerBound])
        .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
}

/// A page of thousands of lanes still draws (a canvas taller than the browser's limit stays blank).
final class TimelineManyWindowsTests: XCTestCase {
    func testTwoThousandTwoHundredWindowsOpenAtOnceAreDrawnInAScrollingChart() throws {
        let folder = TemporaryFolder()
        let path = folder.file("many.jsonl")
        var lines = [#"{"format":"lifecycle-trace","version":2}"#,
                     #"{"event":"launch","t":0,"platform":"macOS","scenes":[{"id":"doc","kind":"WindowGroup"}]}"#]
        for i in 0..<2200 { lines.append(#"{"event":"open","t":\#(i + 1),"window":"w\#(i)","scene":"doc"}"#) }
        lines.append(#"{"event":"phase","t":3000,"phase":"active"}"#)
        lines.append(#"{"event":"terminate","t":4000}"#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let timeline = try Timeline.build(path)
        XCTAssertEqual(timeline.rows, 2200)
        // Counts the canvas's active-green pixels, then scrolls to the last lane and counts again.
        let title = try renderInChromium(timeline.html(), check: """
            const count = () => { const c = document.getElementById("canvas"), g = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
              let n = 0; for (let i = 0; i < g.length; i += 4) if (g[i] === 0x2e && g[i + 1] === 0x7d && g[i + 2] === 0x32) n++; return n; };
            const top = count(), chart = document.getElementById("chart");
            chart.scrollTop = chart.scrollHeight; chart.dispatchEvent(new Event("scroll"));
            document.title = `top=${top} bottom=${count()} height=${document.getElementById("canvas").height} scrolls=${chart.scrollHeight > chart.clientHeight}`;
            """)
        let numbers = title.split(separator: " ").map { $0.split(separator: "=").last.map(String.init) ?? "" }
        XCTAssertEqual(numbers.count, 4, title)
        XCTAssertGreaterThan(Int(numbers[0]) ?? 0, 1000, title)
        XCTAssertGreaterThan(Int(numbers[1]) ?? 0, 1000, title)
        XCTAssertLessThan(Int(numbers[2]) ?? .max, 16_384, title)
        XCTAssertEqual(numbers[3], "true", title)
    }
}

/// `mark` events (a test runner's steps, the app's own notes) on the timeline, and the legend.
final class TimelineMarkTests: XCTestCase {
    private let xcuitest = "\(repositoryRoot)/traces/rules/harness-xcuitest-terminate.jsonl"

    /// The JSON inside the page's data block.
    private func data(_ html: String) throws -> JSONValue {
        let open = #"<script type="application/json" id="timeline-data">"#
        let start = try XCTUnwrap(html.range(of: open)).upperBound
        let end = try XCTUnwrap(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        var bytes = Array(html[start..<end].utf8)
        return try bytes.withUnsafeMutableBufferPointer { try JSONParser.parse(UnsafeBufferPointer($0)) }
    }

    private func array(_ name: String, of value: JSONValue) throws -> [JSONValue] {
        guard case .object(let members) = value, case .array(let items)? = members.first(where: { $0.name == name })?.value else {
            XCTFail("no array \(name)"); return []
        }
        return items
    }

    /// The `mark` events the page's data holds: `"process row text"`, in order.
    private func markTexts(_ html: String) throws -> [String] {
        let value = try data(html)
        let labels = try array("labels", of: value), processes = try array("processes", of: value)
        var texts: [String] = []
        func int(_ v: JSONValue) -> Int? { if case .number(let literal) = v { return Int(literal) } else { return nil } }
        for mark in try array("marks", of: value) {
            guard case .array(let m) = mark, m.count >= 6, int(m[0]) == 8 else { continue }
            guard m.count == 7, let row = int(m[1]), let p = int(m[5]), let l = int(m[6]),
                  labels.indices.contains(l), processes.indices.contains(p),
                  case .string(let text) = labels[l], case .string(let process) = processes[p] else {
                XCTFail("a mark without its text or process: \(mark)"); continue
            }
            texts.append("\(process) \(row) \(text)")
        }
        return texts
    }

    func testTheUITestRunnersMarksAreOnThePageInALaneOfTheirOwn() throws {
        let html = try Timeline.build(xcuitest).html()
        XCTAssertEqual(try markTexts(html), ["com.example.NotesUITests.xctrunner -1 testEditNote",
                                             "com.example.NotesUITests.xctrunner -1 testOpenNote"])
    }

    func testThePageCountsTheProcessesReplayStatsCounts() throws {
        for trace in ["rules/harness-xcuitest-terminate.jsonl", "rules/harness-real-crash.jsonl",
                      "rules/app-widget-share-extension-clean.jsonl", "examples/macos-editor-quit.jsonl"] {
            let path = "\(repositoryRoot)/traces/\(trace)"
            let stats = try TraceStatistics.gather(path)
            let timeline = try Timeline.build(path)
            XCTAssertEqual(timeline.processes.count, stats.processes.count, trace)
            XCTAssertEqual(Set(timeline.processes), Set(stats.processes.map(\.process)), trace)
            XCTAssertEqual(try array("processes", of: try data(timeline.html())).count, stats.processes.count, trace)
        }
        XCTAssertEqual(try TraceStatistics.gather(xcuitest).processes.count, 2)
    }

    func testTheReadmeExamplesMarksAreDrawnAndEveryMarkIsKept() throws {
        let timeline = try Timeline.build("\(repositoryRoot)/traces/examples/macos-editor-quit.jsonl")
        let app = try XCTUnwrap(timeline.processNames.first)
        XCTAssertEqual(try markTexts(timeline.html()), ["\(app) -1 step 1: edit a.txt", "\(app) -1 step 2: Cmd-Q"])
        // Marks before the first launch, between runs and after the last: none is dropped.
        for trace in ["event-before-launch.jsonl", "event-before-launch-negative.jsonl", "willterminate-exit0-unsaved.jsonl"] {
            let path = "\(repositoryRoot)/traces/rules/\(trace)"
            let marks = try TraceStatistics.gather(path).eventsPerKind.first { $0.kind == "mark" }?.count ?? 0
            XCTAssertGreaterThan(marks, 0, trace)
            XCTAssertEqual(try markTexts(try Timeline.build(path).html()).count, Int(marks), trace)
        }
    }

    func testTheLegendHasAMarkEntryAndTellsWritesFromLaunches() throws {
        let html = try Timeline.build(xcuitest).html()
        /// The legend entry with `id`: its markup.
        func entry(_ id: String) throws -> String {
            let start = try XCTUnwrap(html.range(of: "<span id=\"\(id)\">"), "no legend entry \(id)").lowerBound
            return String(html[start..<(try XCTUnwrap(html.range(of: "</span>", range: start..<html.endIndex)).upperBound)])
        }
        XCTAssertTrue(try entry("legend-mark").hasSuffix("</i>mark</span>"))
        let write = try entry("legend-write"), launch = try entry("legend-launch")
        let swatch = { (s: String) in s.replacingOccurrences(of: #"</i>.*"#, with: "", options: .regularExpression) }
        XCTAssertNotEqual(swatch(write), swatch(launch))
        // The legend's colours are the ones the canvas draws with, and write's is not launch's.
        func color(_ name: String) throws -> String {
            let start = try XCTUnwrap(html.range(of: "--\(name):")).upperBound
            return String(html[start...].prefix(7))
        }
        XCTAssertNotEqual(try color("write"), try color("launch"))
        XCTAssertTrue(html.contains(#"WRITE_COLOR = "\#(try color("write"))""#))
        XCTAssertTrue(html.contains(#"MARK_COLOR = "\#(try color("mark"))""#))
        XCTAssertTrue(html.contains(#"BOUNDARY_COLOR = ["", "", "", "", "\#(try color("launch"))""#))
    }

    func testAHostileMarkTextStaysInsideTheDataBlockAndALongOneIsCut() throws {
        let folder = TemporaryFolder()
        let path = folder.file("marks.jsonl")
        let long = String(repeating: "é", count: Timeline.maxMarkLabel + 50)
        try """
            {"format":"lifecycle-trace","version":2}
            {"event":"mark","t":0,"process":"</script><b>runner","label":"</script><script>alert(1)</script> & <!--"}
            {"event":"launch","t":1,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}
            {"event":"mark","t":2,"label":"\(long)"}
            {"event":"terminate","t":3}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let html = try Timeline.build(path).html()
        XCTAssertFalse(html.contains("</script><script>alert(1)"))
        XCTAssertFalse(html.contains("<!--"))
        let texts = try markTexts(html)
        XCTAssertEqual(texts.first, "</script><b>runner -1 </script><script>alert(1)</script> & <!--")
        XCTAssertEqual(texts.last, "app -1 " + String(repeating: "é", count: Timeline.maxMarkLabel - 1) + "…")
        XCTAssertEqual(html, try Timeline.build(path).html(), "the same trace gives the same page")
    }

    func testALongTracesMarksAreCountedPerLaneAndBucketWithTheirFirstText() throws {
        let folder = TemporaryFolder()
        let path = folder.file("many-marks.jsonl")
        var lines = [#"{"format":"lifecycle-trace","version":2}"#,
                     #"{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}"#]
        for i in 0..<30_000 { lines.append(#"{"event":"mark","t":\#(i + 1),"process":"runner","label":"step \#(i)"}"#) }
        lines.append(#"{"event":"terminate","t":40000}"#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let timeline = try Timeline.build(path)
        XCTAssertEqual(timeline.buckets, Timeline.bucketCount)
        let marks = timeline.marks.filter { $0.kind == .mark }
        XCTAssertLessThanOrEqual(marks.count, Timeline.bucketCount + 2)
        XCTAssertEqual(marks.reduce(0) { $0 + $1.count }, 30_000, "every mark is counted")
        XCTAssertEqual(timeline.labels[try XCTUnwrap(marks.first).label], "step 0")
        XCTAssertLessThanOrEqual(timeline.labels.count, Timeline.bucketCount + 4)
        XCTAssertEqual(timeline.processes, ["", "runner"])
    }

    func testTheRunnersMarksAreDrawnWithTheirTextInChromium() throws {
        let html = try Timeline.build(xcuitest).html()
        let title = try renderInChromium(html, check: """
            const c = document.getElementById("canvas"), g = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let teal = 0; for (let i = 0; i < g.length; i += 4) if (g[i] === 0x00 && g[i + 1] === 0x83 && g[i + 2] === 0x8f) teal++;
            document.title = `teal=${teal} summary=${document.getElementById("summary").textContent} label=${c.getAttribute("aria-label")}`;
            """)
        XCTAssertTrue(title.contains("marks: testEditNote, testOpenNote; time axis:"), title)
        XCTAssertTrue(title.contains("2 processes"), title)
        XCTAssertTrue(title.contains("window lanes: com.example.NotesUITests.xctrunner:, app:, w1 · main"), title)
        let teal = Int(title.split(separator: " ").first?.dropFirst("teal=".count) ?? "") ?? 0
        XCTAssertGreaterThan(teal, 40, title)
    }
}
