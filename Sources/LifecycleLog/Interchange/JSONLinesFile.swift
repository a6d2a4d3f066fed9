extension JSONLinesDecoder {
    /// Reads every event of the JSON Lines file at `path` (`-` for standard
    /// input), calling `body` with each event, its seq and its 1-based line
    /// in the file, in order.
    ///
    /// - Throws: `LifecycleLogError` with code `invalidInput` or
    ///   `unsupportedVersion` naming the line, or `io`.
    /// - Returns: the trace's interchange format version (its header's, or 1).
    @discardableResult
    static func forEachEvent(inFile path: String, _ body: (_ seq: UInt64, _ line: Int, Event) throws -> Void) throws -> Int64 {
        var reader = try LineReader(path: path)
        var decoder = JSONLinesDecoder(path: path)
        try reader.forEachLine { number, line in
            if let event = try decoder.decode(line: line, number: number) {
                try body(decoder.seq, number, event)
            }
            return true
        }
        return decoder.formatVersion
    }
}
