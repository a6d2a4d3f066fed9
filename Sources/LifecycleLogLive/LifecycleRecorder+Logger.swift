import LifecycleLogRules
import Logging

extension LifecycleRecorder {
    /// Sends what every recorder reports without throwing (a sink that failed, a collector out of
    /// reach, a spool moved to a new file) and every call it refuses as a misuse to the app's
    /// swift-log `Logger`, instead of the unified log: failures at `.error`, misuses at `.warning`,
    /// each with the path and error code as metadata. Call it once, early.
    ///
    /// ```swift
    /// LifecycleRecorder.log(to: Logger(label: "com.example.notes.lifecycle"))
    /// ```
    public static func log(to logger: Logger) {
        onReport { error in logger.error("\(error.message)", metadata: metadata(error)) }
        onMisuse { error in logger.warning("\(error.message)", metadata: metadata(error)) }
    }

    private static func metadata(_ error: LifecycleLogError) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["code": "\(error.code)"]
        if let path = error.path { metadata["path"] = "\(path)" }
        return metadata
    }
}
