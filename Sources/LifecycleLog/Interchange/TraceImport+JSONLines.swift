/// Import of JSON Lines, which reads the file with the rules' reader
/// (`JSONLinesDecoder.forEachEvent(inFile:)`, LifecycleLogRules).
extension TraceInterchange {
    /// Imports the JSON Lines trace at `input` (`-` for standard input) into a
    /// new trace file at `output`.
    ///
    /// The trace is written to a temporary file beside `output` and renamed
    /// over it only when every line was valid and the data is on disk: on any
    /// error nothing is left behind and an existing `output` is untouched.
    ///
    /// ```swift
    /// let count = try TraceInterchange.importJSONLines(from: "session.jsonl", to: "session.lmdb")
    /// ```
    /// - Returns: the number of events imported.
    /// - Throws: `LifecycleLogError`: `invalidInput` or `unsupportedVersion`
    ///   naming the line, `io`, or `storage`.
    /// - Parameters:
    ///   - input: the JSON Lines trace, or `-` for standard input.
    ///   - output: the trace file to write.
    ///   - initialMapSize: the LMDB map size to start with, in bytes; the map grows when it fills.
    ///   - progress: called with the number of events imported so far, after each batch.
    ///   - warning: called with what was read but not imported: a torn final
    ///     record (a last line without a trailing newline that is not valid
    ///     JSON, as a process killed while writing a spool leaves) is dropped
    ///     and reported here, and everything before it is imported. Without
    ///     it, such a line is an error like any malformed line.
    @discardableResult
    public static func importJSONLines(from input: String, to output: String, initialMapSize: Int = 64 << 20,
                                       progress: ((UInt64) -> Void)? = nil,
                                       warning: ((LifecycleLogError) -> Void)? = nil) throws -> UInt64 {
        var imported: UInt64 = 0
        try writeAtomically(to: output, initialMapSize: initialMapSize) { writer in
            try appendJSONLines(from: input, to: writer, progress: progress, warning: warning)
            imported = writer.lastSeq
        }
        return imported
    }

    private static func appendJSONLines(from input: String, to writer: TraceWriter, progress: ((UInt64) -> Void)?,
                                        warning: ((LifecycleLogError) -> Void)?) throws {
        var version: Int64 = 1
        try appendInBatches(to: writer, progress: progress) { emit in
            version = try JSONLinesDecoder.forEachEvent(inFile: input, tornFinalRecord: warning) { _, _, event in try emit(event) }
        }
        // A version-2 trace stays one even when no event uses version-2 data, so that
        // export gives back its header (the file is still the temporary one here).
        if Int(version) > writer.formatVersion {
            try writer.append([LifecycleEvent](), formatVersion: Int(version))
        }
    }
}
