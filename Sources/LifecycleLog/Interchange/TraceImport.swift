#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converting between JSON Lines and trace files.
public enum TraceInterchange {
    /// How many events one import transaction holds.
    static let importBatchSize = 16_384

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
    /// - Throws: ``LifecycleLogError``: `invalidInput` or `unsupportedVersion`
    ///   naming the line, `io`, or `storage`.
    @discardableResult
    public static func importJSONLines(from input: String, to output: String, initialMapSize: Int = 64 << 20) throws -> UInt64 {
        let temporary = temporaryPath(beside: output)
        var imported: UInt64 = 0
        do {
            try writeImport(from: input, to: temporary, initialMapSize: initialMapSize, count: &imported)
            if rename(temporary, output) != 0 {
                throw LMDBCall.error("rename", errno, path: output)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        return imported
    }

    private static func writeImport(from input: String, to temporary: String, initialMapSize: Int, count: inout UInt64) throws {
        let writer = try TraceWriter(path: temporary, sharing: .exclusive, initialMapSize: initialMapSize)
        var batch: [Event] = []
        batch.reserveCapacity(importBatchSize)
        try JSONLinesDecoder.forEachEvent(inFile: input) { _, event in
            batch.append(event)
            if batch.count == importBatchSize {
                try writer.append(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try writer.append(batch) }
        try writer.sync()
        count = writer.lastSeq
    }

    static func temporaryPath(beside output: String) -> String {
        let slash = output.lastIndex(of: "/")
        let folder = slash.map { String(output[...$0]) } ?? ""
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        return "\(folder).\(name).import-\(getpid()).tmp"
    }

    /// Writes every event of `trace` as JSON Lines, header first, to `body`
    /// one line at a time (each ends with `\n`).
    ///
    /// - Throws: ``LifecycleLogError`` from reading the trace, or what `body` throws.
    public static func exportJSONLines(_ trace: Trace, _ body: (String) throws -> Void) throws {
        try body("{\"format\":\"lifecycle-trace\",\"version\":\(JSONLinesDecoder.supportedVersion)}\n")
        try trace.forEachEvent { _, event in
            try body(event.jsonLine + "\n")
        }
    }
}
