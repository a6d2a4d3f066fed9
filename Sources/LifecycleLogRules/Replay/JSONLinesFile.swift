extension JSONLinesDecoder {
    /// Reads every event of the JSON Lines file at `path` (`-` for standard
    /// input), calling `body` with each event, its seq and its 1-based line
    /// in the file, in order.
    ///
    /// - Throws: `LifecycleLogError` with code `invalidInput` or
    ///   `unsupportedVersion` naming the line, or `io`.
    /// - Parameter tornFinalRecord: when given, a last line without a
    ///   trailing `\n` that is not valid JSON (what a writer killed mid-line,
    ///   such as a ``SpoolSink``, leaves) is dropped and reported here instead
    ///   of failing the read. A malformed line anywhere else is still an error.
    /// - Returns: the trace's interchange format version (its header's, or 1).
    @discardableResult
    package static func forEachEvent(inFile path: String, tornFinalRecord: ((LifecycleLogError) -> Void)? = nil,
                             _ body: (_ seq: UInt64, _ line: Int, LifecycleEvent) throws -> Void) throws -> Int64 {
        var reader = try LineReader(path: path)
        var decoder = JSONLinesDecoder(path: path)
        func handle(_ number: Int, _ line: UnsafeBufferPointer<UInt8>) throws {
            if let event = try decoder.decode(line: line, number: number) {
                try body(decoder.seq, number, event)
            }
        }
        try reader.forEachLine(beforeReading: {}, unterminated: { number, line in
            guard let report = tornFinalRecord else { return false }
            do {
                try handle(number, line)
            } catch let error as LifecycleLogError where error.code == .invalidInput {
                let reason: String
                do {
                    _ = try JSONParser.parse(line)
                    throw error  // valid JSON: a malformed event, not a torn one
                } catch let failure as JSONParser.Failure {
                    reason = failure.message
                }
                report(LifecycleLogError(.invalidInput, "torn final record dropped: the last line has no newline and is not valid JSON (\(reason)); the writer was probably killed mid-write",
                                         path: path, line: number))
            }
            return true
        }) { number, line in
            try handle(number, line)
            return true
        }
        return decoder.formatVersion
    }
}
