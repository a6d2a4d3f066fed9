internal import LifecycleLogPlatform

/// Converting between JSON Lines and trace files.
public enum TraceInterchange {
    /// How many events one import transaction holds.
    package static let importBatchSize = 16_384

    /// Writes a synthetic trace (``TraceGenerator``) into a new trace file at
    /// `output`, atomically like `importJSONLines(from:to:initialMapSize:progress:warning:)` (LifecycleLog).
    /// - Parameters:
    ///   - options: what to generate: the number of events, the seed, the windows, the bug rate and the format version.
    ///   - output: the trace file to write.
    ///   - progress: called with the number of events written so far, after each batch.
    public static func generate(_ options: TraceGenerator.Options, to output: String, progress: ((UInt64) -> Void)? = nil) throws {
        try writeAtomically(to: output) { writer in
            try appendInBatches(to: writer, progress: progress) { emit in try TraceGenerator.generate(options, emit) }
            // A version 2 trace is one even if its few events happen to use nothing of version 2.
            if options.formatVersion > writer.formatVersion { try writer.append([LifecycleEvent](), formatVersion: options.formatVersion) }
        }
    }

    /// Runs `body` with a writer on a temporary file beside `output`, then
    /// syncs it and renames it over `output`; on a throw removes it. The
    /// temporary file is registered with `TemporaryFiles` while it exists,
    /// and errors name `output`, never the temporary file.
    package static func writeAtomically(to output: String, initialMapSize: Int = 64 << 20, _ body: (TraceWriter) throws -> Void) throws {
        let temporary = temporaryPath(beside: output)
        // The writer first builds an empty trace beside its own path (TraceWriter.createIfMissing).
        let creating = temporaryPath(beside: temporary)
        TemporaryFiles.register(temporary)
        TemporaryFiles.register(creating)
        defer {
            TemporaryFiles.unregister(creating)
            TemporaryFiles.unregister(temporary)
        }
        do {
            do {
                let writer: TraceWriter
                do {
                    writer = try TraceWriter(path: temporary, sharing: .exclusive, initialMapSize: initialMapSize)
                } catch let error as LifecycleLogError {
                    // A full disk keeps liblmdb's advice (an EIO from a short write says "disk out of space" there).
                    let full = error.lmdbStatus.map { [EIO, ENOSPC, EFBIG, EDQUOT].contains($0) } ?? false
                    let reason = full ? error.message : error.lmdbStatus.map { String(cString: strerror($0)) } ?? error.message
                    throw LifecycleLogError(.io, "cannot create the trace file: \(reason); check that the folder exists and is writable",
                                            path: output, lmdbStatus: error.lmdbStatus, function: error.function)
                }
                try body(writer)
                try writer.sync()
            }
            if rename(temporary, output) != 0 {
                throw LMDBCall.error("rename", errno, path: output)
            }
        } catch let error as LifecycleLogError {
            unlink(temporary)
            throw error.naming(output, insteadOf: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Appends the events `produce` emits, ``importBatchSize`` per transaction.
    package static func appendInBatches(to writer: TraceWriter, progress: ((UInt64) -> Void)? = nil,
                                        _ produce: (_ emit: (LifecycleEvent) throws -> Void) throws -> Void) throws {
        var batch: [LifecycleEvent] = []
        batch.reserveCapacity(importBatchSize)
        try produce { event in
            batch.append(event)
            if batch.count == importBatchSize {
                try writer.append(batch)
                batch.removeAll(keepingCapacity: true)
                progress?(writer.lastSeq)
            }
        }
        if !batch.isEmpty { try writer.append(batch) }
        progress?(writer.lastSeq)
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
    /// - Throws: `LifecycleLogError` from reading the trace, or what `body` throws.
    public static func exportJSONLines(_ trace: Trace, _ body: (String) throws -> Void) throws {
        try body("{\"format\":\"lifecycle-trace\",\"version\":\(try trace.formatVersion)}\n")
        try trace.forEachEvent { _, event in
            try body(event.jsonLine + "\n")
        }
    }
}
