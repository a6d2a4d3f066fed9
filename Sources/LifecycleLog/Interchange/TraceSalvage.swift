/// What ``TraceInterchange/salvageJSONLines(path:_:)`` recovered from a trace.
public struct SalvageSummary: Sendable, CustomStringConvertible {
    /// How many events were written.
    public var events: UInt64 = 0
    /// How many of them liblmdb's walk read in order before it met the damage
    /// (all of them when the trace is whole).
    public var readInOrder: UInt64 = 0
    /// What stopped liblmdb's walk, or kept liblmdb from opening the file;
    /// `nil` when the whole trace was read.
    public var stoppedBy: LifecycleLogError?
    /// Seqs that could not be recovered between recovered ones, in order.
    public var missing: [ClosedRange<UInt64>] = []
    /// The last seq recovered (0 when none was).
    public var lastSeq: UInt64 = 0

    /// Whether the trace was read whole, with nothing to salvage.
    public var isWhole: Bool { stoppedBy == nil }

    /// One paragraph for a person: what was recovered and what was not.
    public var description: String {
        guard let stoppedBy else { return "the trace is whole: exported all \(events) events" }
        // The damage itself, without the advice to salvage that the error gives.
        let damage = stoppedBy.message.split(separator: "; ", maxSplits: 1).first.map(String.init) ?? stoppedBy.message
        var text = "salvaged \(events) events"
        if readInOrder > 0 {
            text += ": seqs 1–\(readInOrder) read in order, until seq \(readInOrder + 1): \(damage)"
        } else {
            text += ": liblmdb could not read the trace (\(stoppedBy.seq.map { "seq \($0): " } ?? "")\(damage))"
        }
        let scanned = events - readInOrder
        text += scanned > 0 ? "; \(scanned) found in the file's pages after that, up to seq \(lastSeq)" : "; the file's pages hold no later events"
        if !missing.isEmpty {
            let shown = missing.prefix(8).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
            let more = missing.count > 8 ? " and \(missing.count - 8) more ranges" : ""
            let count = missing.reduce(UInt64(0)) { $0 + UInt64($1.count) }
            text += "; \(count) events could not be recovered (seqs \(shown.joined(separator: ", "))\(more)): the events after a gap follow on, so their seqs in the recovered file are lower"
        }
        text += "; events after seq \(lastSeq), if there were any, could not be found"
        return text
    }
}

extension TraceInterchange {
    /// Writes every event of a damaged trace that can still be read, as JSON
    /// Lines, header first, to `body` one line at a time.
    ///
    /// liblmdb's walk in key order comes first and recovers every event
    /// before the damage, as ``exportJSONLines(_:_:)`` would read them. When
    /// it stops at a damaged page, or liblmdb cannot open the file at all
    /// (truncated, damaged meta pages or symbols), the file's pages are read
    /// directly (``LMDBPageScan``): every leaf of event records still in the
    /// file, reached from the damaged tree or not, gives the events after
    /// the damage, in seq order. What could not be found is listed in the
    /// summary, never invented.
    ///
    /// - Returns: what was recovered and what was not.
    /// - Throws: ``LifecycleLogError`` when the file is missing, unreadable or
    ///   not an LMDB file at all; or what `body` throws.
    public static func salvageJSONLines(path: String, _ body: (String) throws -> Void) throws -> SalvageSummary {
        try body("{\"format\":\"lifecycle-trace\",\"version\":\(JSONLinesDecoder.supportedVersion)}\n")
        var summary = SalvageSummary()
        var symbols: SymbolTable?
        do {
            let trace = try Trace(path: path)
            symbols = trace.symbols
            do {
                try trace.forEachEvent { seq, event in
                    try body(event.jsonLine + "\n")
                    summary.events += 1
                    summary.lastSeq = seq
                }
                summary.readInOrder = summary.events
                return summary
            } catch let error as LifecycleLogError where error.code == .corruptTrace || error.code == .storage {
                summary.stoppedBy = error
            }
        } catch let error as LifecycleLogError where error.code == .corruptTrace || error.code == .storage {
            summary.stoppedBy = error  // liblmdb cannot open it: the pages are all there is
        }
        summary.readInOrder = summary.events
        let scan = try LMDBPageScan(path: path)
        let table = symbols ?? scanSymbols(scan)
        try scanEvents(scan, symbols: table, after: summary.lastSeq, into: &summary, body)
        return summary
    }

    /// The strings of every leaf of the symbols database left in the file
    /// (4-byte big-endian ids, UTF-8 strings), from id 0 for as long as they
    /// run on without a gap.
    private static func scanSymbols(_ scan: borrowing LMDBPageScan) -> SymbolTable {
        var found: [UInt32: String] = [:]
        for page in 2..<max(2, scan.pageCount) {
            guard let entries = scan.leafEntries(ofPage: page), !entries.isEmpty,
                  entries.allSatisfy({ $0.key.count == 4 }) else { continue }
            for entry in entries {
                let id = entry.key.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let s = String(decoding: entry.value, as: UTF8.self)
                guard s.utf8.elementsEqual(entry.value) else { continue }
                if found[id] == nil { found[id] = s }
            }
        }
        var table = SymbolTable()
        while let s = found[UInt32(table.count)] { table.append(s, indexed: false) }
        return table
    }

    /// Writes the events with seqs above `after` found in the file's leaf
    /// pages, in seq order, each once.
    private static func scanEvents(_ scan: borrowing LMDBPageScan, symbols: SymbolTable, after: UInt64,
                                   into summary: inout SalvageSummary, _ body: (String) throws -> Void) throws {
        // Pass 1: which pages hold event records above `after`, and their seq range.
        // Kept per page, not per event, so memory grows with the file's pages.
        struct Leaf { var first: UInt64; var last: UInt64; var page: Int }
        var leaves: [Leaf] = []
        for page in 2..<max(2, scan.pageCount) {
            guard let seqs = eventSeqs(scan.leafEntries(ofPage: page)), let last = seqs.last, last > after else { continue }
            leaves.append(Leaf(first: seqs[0], last: last, page: page))
        }
        // The fullest copy of a range first; stale copies of it then add nothing.
        leaves.sort { ($0.first, $1.last, $0.page) < ($1.first, $0.last, $1.page) }
        // Pass 2: decode and write in seq order.
        var next = after + 1
        for leaf in leaves where leaf.last >= next {
            guard let entries = scan.leafEntries(ofPage: leaf.page) else { continue }
            for entry in entries {
                let seq = entry.key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard seq >= next else { continue }
                guard let event = try? entry.value.withUnsafeBytes({ try EventCodec.decode($0, symbols: symbols) }) else { continue }
                if seq > next { summary.missing.append(next...(seq - 1)) }
                try body(event.jsonLine + "\n")
                summary.events += 1
                summary.lastSeq = seq
                next = seq + 1
            }
        }
    }

    /// The seqs of a leaf page's entries when they all look like event keys
    /// (8 bytes, strictly ascending); `nil` otherwise.
    private static func eventSeqs(_ entries: [LMDBPageScan.Entry]?) -> [UInt64]? {
        guard let entries, !entries.isEmpty else { return nil }
        var seqs: [UInt64] = []
        seqs.reserveCapacity(entries.count)
        for entry in entries {
            guard entry.key.count == 8 else { return nil }
            let seq = entry.key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if let previous = seqs.last, seq <= previous { return nil }
            seqs.append(seq)
        }
        return seqs[0] == 0 ? nil : seqs
    }
}
