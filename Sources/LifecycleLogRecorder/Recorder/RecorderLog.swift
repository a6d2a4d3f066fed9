#if canImport(os)
import os
#endif

/// Where the recorder reports failures it does not throw: the handler the app set
/// (``LifecycleRecorder/onReport(_:)``), else the unified log on Apple platforms
/// (subsystem `LifecycleLog`, category `recorder`), so that a failing sink shows in
/// Console.app; elsewhere only ``LifecycleRecorder/lastError``.
enum RecorderLog {
    #if canImport(os)
    private static let logger = Logger(subsystem: "LifecycleLog", category: "recorder")
    #endif

    /// Where the app wants the reports instead (``LifecycleRecorder/onReport(_:)``; `LifecycleLogLive`'s
    /// `LifecycleRecorder.log(to:)` gives a swift-log `Logger`).
    static let handler = Locked<(@Sendable (LifecycleLogError) -> Void)?>(nil)

    /// A note for the unified log (not an error of the recorder's).
    static func note(_ message: String) {
        #if canImport(os)
        logger.notice("\(message, privacy: .public)")
        #endif
    }

    static func report(_ error: LifecycleLogError) {
        if let handler = handler.withLock({ $0 }) {
            handler(error)
            return
        }
        #if canImport(os)
        logger.error("\(error.description, privacy: .public)")
        #endif
    }
}
