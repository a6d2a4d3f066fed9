/// The names and keys of the stored layout (FORMAT.md, "Databases").
@usableFromInline enum TraceLayout {
    static let metaDatabase = "meta"
    static let symbolsDatabase = "symbols"
    static let eventsDatabase = "events"

    static let formatKey = "format"
    static let formatName = "lifecycle-trace"
    static let layoutKey = "layout"
    static let traceVersionKey = "trace-version"
    static let writerKey = "writer"

    /// Who wrote a trace, stored under `writer`.
    static let writerName = "LifecycleLog 0.1.0"

    /// An event's key: its seq as 8 big-endian bytes, so that key order is seq order.
    @usableFromInline static func seqKey(_ seq: UInt64) -> [UInt8] {
        withUnsafeBytes(of: seq.bigEndian) { Array($0) }
    }

    @inlinable static func seq(fromKey key: UnsafeRawBufferPointer) -> UInt64? {
        guard key.count == 8 else { return nil }
        var v: UInt64 = 0
        for b in key { v = v << 8 | UInt64(b) }
        return v
    }

    /// A symbol's key: its id as 4 big-endian bytes.
    static func symbolKey(_ id: UInt32) -> [UInt8] {
        withUnsafeBytes(of: id.bigEndian) { Array($0) }
    }

    static func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
}

/// The open databases of one trace and its symbol table: what both the
/// reading and the appending side need.
@usableFromInline struct TraceDatabases: Sendable {
    var meta: LMDBDatabase
    var symbols: LMDBDatabase
    @usableFromInline var events: LMDBDatabase
    /// Whether every event record and symbol ends with a ``RecordChecksum`` (layout 3 and later).
    @usableFromInline var checksummed: Bool

    /// Opens the databases of an existing trace and checks its metadata.
    static func open(in txn: borrowing LMDBTransaction, path: String) throws -> TraceDatabases {
        let notATrace = LifecycleLogError(.notATrace,
            "an LMDB file without LifecycleLog metadata, not a trace; create traces with `replay import` or the recorder",
            path: path)
        guard let meta = try txn.openDatabase(TraceLayout.metaDatabase, create: false) else { throw notATrace }
        let format: String? = try TraceLayout.formatKey.utf8CString.withUnsafeBytes { raw in
            try txn.get(meta, key: UnsafeRawBufferPointer(rebasing: raw.dropLast())) { String(decoding: $0, as: UTF8.self) }
        }
        guard format == TraceLayout.formatName else { throw notATrace }
        let layout = try TraceDatabases.u32(TraceLayout.layoutKey, meta, in: txn)
        guard let layout else {
            throw LifecycleLogError(.corruptTrace, "the trace's metadata has no valid \"layout\" entry; the file is damaged", path: path)
        }
        if layout > EventCodec.layoutVersion {
            throw LifecycleLogError(.unsupportedVersion,
                "the trace uses stored layout \(layout), but this replay reads layout \(EventCodec.layoutVersion); update LifecycleLog to read it",
                path: path)
        }
        // A newer LifecycleLog may raise the interchange version without a new stored
        // layout; reading such a trace would export a header that this version's import refuses.
        if let version = try TraceDatabases.u32(TraceLayout.traceVersionKey, meta, in: txn),
           Int64(version) > JSONLinesDecoder.supportedVersion {
            throw LifecycleLogError(.unsupportedVersion,
                "the trace is format version \(version) (its stored \"trace-version\"), but this replay reads versions up to \(JSONLinesDecoder.supportedVersion); upgrade replay (LifecycleLog) to read it",
                path: path)
        }
        guard let symbols = try txn.openDatabase(TraceLayout.symbolsDatabase, create: false),
              let events = try txn.openDatabase(TraceLayout.eventsDatabase, create: false) else {
            throw LifecycleLogError(.corruptTrace, "the trace lacks its symbols or events database; the file is damaged", path: path)
        }
        return TraceDatabases(meta: meta, symbols: symbols, events: events, checksummed: layout >= EventCodec.checksumLayoutVersion)
    }

    /// Creates the databases and metadata of a new trace.
    static func create(in txn: borrowing LMDBTransaction) throws -> TraceDatabases {
        // `!`: with create: true, openDatabase returns a database or throws.
        let meta = try txn.openDatabase(TraceLayout.metaDatabase, create: true)!
        let symbols = try txn.openDatabase(TraceLayout.symbolsDatabase, create: true)!
        let events = try txn.openDatabase(TraceLayout.eventsDatabase, create: true)!
        func put(_ key: String, _ value: [UInt8]) throws {
            try Array(key.utf8).withUnsafeBytes { k in
                try value.withUnsafeBytes { v in try txn.put(meta, key: k, value: v, append: false) }
            }
        }
        try put(TraceLayout.formatKey, Array(TraceLayout.formatName.utf8))
        // A new trace is layout 3 (checksums; issue 28), trace version 1 until it holds version-2
        // data (``raiseFormatVersion(to:in:)``). Versions before layout 3 refuse it by its layout,
        // naming it, rather than read records whose last four bytes they do not know.
        try put(TraceLayout.layoutKey, TraceLayout.u32(EventCodec.layoutVersion))
        try put(TraceLayout.traceVersionKey, TraceLayout.u32(1))
        try put(TraceLayout.writerKey, Array(TraceLayout.writerName.utf8))
        return TraceDatabases(meta: meta, symbols: symbols, events: events, checksummed: true)
    }

    /// The bytes of the event record stored under `seq`, without its checksum, once the checksum
    /// matches (layout 3); the record itself in earlier layouts.
    ///
    /// - Throws: `LifecycleLogError` `corruptTrace` naming the seq when the check fails.
    @inlinable @inline(__always)
    func body(ofRecord record: UnsafeRawBufferPointer, seq: UInt64) throws(LifecycleLogError) -> UnsafeRawBufferPointer {
        guard checksummed else { return record }
        guard let body = RecordChecksum.body(of: record, key: seq) else { throw RecordChecksum.mismatch(seq: seq) }
        return body
    }

    /// The event stored under `seq`, checked (layout 3) and decoded.
    func decode(_ record: UnsafeRawBufferPointer, seq: UInt64, symbols: SymbolTable) throws -> LifecycleEvent {
        try EventCodec.decode(body(ofRecord: record, seq: seq), symbols: symbols)
    }

    /// A 4-byte big-endian number of `meta`; `nil` when missing or not 4 bytes.
    static func u32(_ key: String, _ meta: LMDBDatabase, in txn: borrowing LMDBTransaction) throws -> UInt32? {
        try Array(key.utf8).withUnsafeBytes { k in
            try txn.get(meta, key: k) { bytes in
                bytes.count == 4 ? bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : nil
            } ?? nil
        }
    }

    /// The interchange format version of the trace's events (`trace-version`;
    /// 1 when missing, as in files written before it was checked).
    func formatVersion(in txn: borrowing LMDBTransaction) throws -> Int {
        Int(try TraceDatabases.u32(TraceLayout.traceVersionKey, meta, in: txn) ?? 1)
    }

    /// Makes the trace a trace of interchange format `version` (at least 2):
    /// sets `trace-version`, and `layout` to 2, unless they are already that
    /// high (a layout-3 trace stays layout 3). Called in the transaction that stores the first version-2 data,
    /// so earlier versions refuse the file by its layout from then on.
    func raiseFormatVersion(to version: Int, in txn: borrowing LMDBTransaction) throws -> Int {
        let stored = try formatVersion(in: txn)
        let layout = try TraceDatabases.u32(TraceLayout.layoutKey, meta, in: txn) ?? EventCodec.baseLayoutVersion
        func put(_ key: String, _ value: UInt32) throws {
            try Array(key.utf8).withUnsafeBytes { k in
                try TraceLayout.u32(value).withUnsafeBytes { v in try txn.put(meta, key: k, value: v, append: false) }
            }
        }
        if layout < EventCodec.version2LayoutVersion { try put(TraceLayout.layoutKey, EventCodec.version2LayoutVersion) }
        if stored < version { try put(TraceLayout.traceVersionKey, UInt32(version)) }
        return max(stored, version)
    }

    /// Reads the symbols stored after the first `table.count` into `table`;
    /// with `forWriting`, indexed for interning too.
    @usableFromInline func loadSymbols(into table: inout SymbolTable, in txn: borrowing LMDBTransaction, path: String, forWriting: Bool = false) throws {
        let from = TraceLayout.symbolKey(UInt32(table.count))
        var loaded = table
        try from.withUnsafeBytes { fromKey in
            try txn.forEach(symbols, from: fromKey) { key, value in
                let expected = TraceLayout.symbolKey(UInt32(loaded.count))
                guard key.elementsEqual(expected) else {
                    throw LifecycleLogError(.corruptTrace, "string #\(loaded.count) is missing from the symbols database; the file is damaged", path: path)
                }
                var value = value
                if checksummed {
                    guard let body = RecordChecksum.body(of: value, key: UInt64(loaded.count)) else {
                        var error = RecordChecksum.symbolMismatch(id: loaded.count)
                        error.path = path
                        throw error
                    }
                    value = body
                }
                let s = String(decoding: value, as: UTF8.self)
                guard s.utf8.elementsEqual(value) else {
                    throw LifecycleLogError(.corruptTrace, "string #\(loaded.count) is not valid UTF-8; the file is damaged", path: path)
                }
                loaded.append(s, indexed: forWriting)
                return true
            }
        }
        table = loaded
    }
}
