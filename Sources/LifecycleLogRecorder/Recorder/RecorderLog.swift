#if canImport(os)
import os
#endif

/// Where the recorder reports failures it does not throw: the unified log on
/// Apple platforms (subsystem `LifecycleLog`, category `recorder`), so that a
/// failing sink shows in Console.app; elsewhere only ``LifecycleRecorder/lastError``.
enum RecorderLog {
    #if canImport(os)
    private static let logger = Logger(subsystem: "LifecycleLog", category: "recorder")
    #endif

    static func report(_ error: LifecycleLogError) {
        #if canImport(os)
        logger.error("\(error.description, privacy: .public)")
        #endif
    }
}
