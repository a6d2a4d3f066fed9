import LifecycleLogRecorder

/// What a first pass over a trace learns for its OTLP export: each process's `Resource` (from its
/// first `launch`) and, for trace ids, a 128-bit digest of the events (two FNV-1a 64 hashes of their
/// JSON Lines text). Keeps one entry per process.
struct OTLPTracePass {
    /// Each process's resource, by process (`""`: the main app).
    private(set) var resources: [String: JSONValue] = [:]
    /// The digest of every event, in order (its two halves).
    private(set) var digest: (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)

    /// Reads the trace at `path`; `digest` only when `hashing` (the traces export uses it).
    init(_ path: String, hashing: Bool) throws {
        var scratch: [UInt8] = []
        try Replayer.forEachEvent(in: path) { _, event in
            let process = event.process ?? ""
            if resources[process] == nil, case .launch(let launch) = event.kind {
                resources[process] = OTLPJSON.resource(process: process, launch: launch, extra: event.extraFields)
            }
            if hashing {
                scratch.removeAll(keepingCapacity: true)
                JSONWriter.writeObject(event.jsonMembers, into: &scratch)
                scratch.append(UInt8(ascii: "\n"))
                add(scratch)
            }
            return true
        }
    }

    /// Folds `bytes` into both halves of the digest.
    private mutating func add(_ bytes: [UInt8]) {
        for b in bytes {
            digest.0 = (digest.0 ^ UInt64(b)) &* 0x0000_0100_0000_01B3
            digest.1 = (digest.1 ^ UInt64(b)) &* 0x0000_0100_0000_01B3
        }
    }

    /// The resource of `process`: its launch's, or one with only its name for a process that
    /// recorded no launch.
    func resource(_ process: String) -> JSONValue {
        resources[process] ?? OTLPJSON.resource(process: process, launch: nil, extra: [])
    }
}
