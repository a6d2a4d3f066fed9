import Foundation
import Logging
import XCTest
@testable import LifecycleLog

/// A collector running on a thread of its own until `stop()`, over a real socket on 127.0.0.1
/// into a real trace: the collector tests share it.
final class RunningCollector: Sendable {
    let collector: TraceCollector
    let log = Locked<[String]>([])
    private let result = Locked<Result<TraceCollector.Summary, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(path: String, port: Int = 0, token: String? = nil, limits: TraceCollector.Limits = .init()) throws {
        collector = try TraceCollector(trace: path, host: "127.0.0.1", port: port, token: token, limits: limits)
        Thread.detachNewThread { [self] in
            let outcome = Result { try collector.run { message in self.log.withLock { $0.append(message) } } }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    var port: Int { collector.port }
    /// What the collector has logged so far.
    var lines: [String] { log.withLock { $0 } }

    /// Stops the collector and returns its summary (or what its run threw).
    @discardableResult
    func stop() throws -> TraceCollector.Summary {
        collector.stop()
        done.wait()
        return try result.withLock { $0! }.get()  // `!`: set before `done` is signalled
    }
}

/// How long a test's `CollectorSink` waits in `write(_:)` for the collector's acknowledgement:
/// until it comes (or the connection fails, which ends the wait at once), however loaded the
/// machine. The product's 25 ms keeps an app's main thread from waiting on the network; a test
/// that asserts what the collector acknowledged, or what the fallback was spared, waits for it.
let acknowledgementWaitInTests: Duration = .seconds(60)

/// Polls `condition` every 10 ms until it holds or `timeout` passes (generous: what takes
/// milliseconds on a quiet machine can take seconds on a loaded one); returns whether it held.
/// Tests wait for the condition they check, never for a wall-clock window.
@discardableResult
func waitUntil(timeout: Duration = .seconds(60), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

/// Waits (up to 60 s) until the collector has acknowledged the first `count` events given to
/// `sink`, and fails the test when it has not.
func waitForAcknowledgement(_ sink: CollectorSink, of count: Int, file: StaticString = #filePath, line: UInt = #line) {
    waitUntil { sink.acknowledgedEventCount >= count }
    XCTAssertEqual(sink.acknowledgedEventCount, count, "acknowledged", file: file, line: line)
}

/// Every event of the trace at `path`, in seq order.
func storedEvents(_ path: String) throws -> [LifecycleEvent] {
    var events: [LifecycleEvent] = []
    try Trace(path: path).forEachEvent { _, e in events.append(e) }
    return events
}

/// A swift-log handler that keeps what is logged to it: level, message and metadata.
final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    // @unchecked Sendable: `entries` is reached only under its lock; `metadata` and `logLevel` only
    // by the swift-log API's own (test-thread) calls.
    let entries = Locked<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { entries.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) } }
    /// A logger writing to this handler.
    var logger: Logger { Logger(label: "test") { _ in self } }
}
