internal import LifecycleLogPlatform
#if LIFECYCLELOG_TESTING_LMDB
import LifecycleLog
#else
import LifecycleLogRules
#endif
#if canImport(Testing)
import Testing
#endif

/// Attaches a failing trace, and its HTML timeline, to the current test's
/// result, where the framework running it supports attachments.
///
/// Swift Testing (Swift 6.2 and later) keeps attachments when it is asked to
/// (`swift test --attachments-path DIR`, or Xcode's test report). In an XCTest
/// test the timeline is written beside the trace instead
/// (``writeTimeline(beside:configuration:)``), and the failure message names it.
enum TraceAttachments {
    /// Traces larger than this are not attached (the timeline still is).
    static let maxTraceBytes = 64 << 20

    /// Whether the calling code runs inside a Swift Testing test (on the test's own task): there a
    /// failure's session is attached; elsewhere a trace's timeline is written beside it.
    static var inSwiftTesting: Bool {
        #if canImport(Testing)
        return Test.current != nil
        #else
        return false
        #endif
    }

    /// Attaches the session: its file and, where the reports are (`LifecycleLog`), its timeline,
    /// replayed with `configuration`; events in memory as a `.jsonl` file (at most
    /// ``maxTraceBytes`` of it).
    static func record(_ session: RecordedSession, configuration: RuleConfiguration, at site: CallSite) {
        #if canImport(Testing) && compiler(>=6.2)
        guard inSwiftTesting else { return }
        if let events = session.events {
            var text = ""
            for event in events {
                text += event.jsonLine + "\n"
                if text.utf8.count > maxTraceBytes { return }
            }
            Attachment.record(Array(text.utf8), named: "session.jsonl", sourceLocation: site.sourceLocation)
            return
        }
        guard let path = session.file else { return }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let bytes = contents(of: path, limit: maxTraceBytes) {
            Attachment.record(bytes, named: name, sourceLocation: site.sourceLocation)
        }
        #if LIFECYCLELOG_TESTING_LMDB
        if let timeline = try? Timeline.build(path, configuration: configuration) {
            Attachment.record(timeline.html(), named: "\(name).timeline.html", sourceLocation: site.sourceLocation)
        }
        #endif
        #endif
    }

    /// Writes the HTML timeline of the trace at `path` to `PATH.timeline.html`
    /// and returns that path, or `nil` when it could not be built or written.
    static func writeTimeline(beside path: String, configuration: RuleConfiguration) -> String? {
        #if LIFECYCLELOG_TESTING_LMDB
        guard let timeline = try? Timeline.build(path, configuration: configuration) else { return nil }
        let target = path + ".timeline.html"
        guard let file = fopen(target, "wb") else { return nil }
        let html = Array(timeline.html().utf8)
        let written = html.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard fclose(file) == 0, written == html.count else {
            unlink(target)
            return nil
        }
        return target
        #else
        return nil
        #endif
    }

    /// The bytes of the file at `path`, read `chunkSize` bytes at a time, or
    /// `nil` when it cannot be read or is larger than `limit`.
    static func contents(of path: String, limit: Int, chunkSize: Int = 1 << 16) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[..<n]) }
            if bytes.count > limit { return nil }
            if n < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
