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
        guard let stoppedBy else { return events == 1 ? "the trace is whole: exported its 1 event" : "the trace is whole: exported all \(events) events" }
        // The damage itself, without the advice to salvage that the error gives.
        let damage = stoppedBy.message.split(separator: "; ", maxSplits: 1).first.map(String.init) ?? stoppedBy.message
        var text = "salvaged \(plural(events, "event"))"
        let scanned = events - readInOrder
        if readInOrder > 0 {
            text += ": seqs 1–\(readInOrder) read in order, until seq \(readInOrder + 1): \(damage)"
            text += scanned > 0 ? "; \(scanned) found in the file's pages after that, up to seq \(lastSeq)" : "; the file's pages hold no later events"
        } else {
            // Nothing was read in order, so there is no "after that" (issue 30: 12).
            text += ": liblmdb could not read the trace (\(stoppedBy.seq.map { "seq \($0): " } ?? "")\(damage))"
            text += scanned > 0 ? "; \(scanned == 1 ? "it was" : "all \(scanned) were") found in the file's pages, up to seq \(lastSeq)" : "; the file's pages hold no events either"
        }
        if !missing.isEmpty {
            let shown = missing.prefix(8).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
            let more = missing.count > 8 ? " and \(missing.count - 8) more ranges" : ""
            let count = missing.reduce(UInt64(0)) { $0 &+ ($1.upperBound - $1.lowerBound + 1) }  // ranges are bounded by the file's records
            let which = count == 1 ? "1 event could not be recovered (seq" : "\(count) events could not be recovered (seqs"
            text += "; \(which) \(shown.joined(separator: ", "))\(more)): the events after a gap follow on, so their seqs in the recovered file are lower"
        }
        text += lastSeq > 0 ? "; events after seq \(lastSeq), if there were any, could not be found" : ""
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
    /// directly (`LMDBPageScan`): every leaf of event records still in the
    /// file, reached from the damaged tree or not, gives the events after
    /// the damage, in seq order. What could not be found is listed in the
    /// summary, never invented.
    ///
    /// - Returns: what was recovered and what was not.
    /// - Throws: `LifecycleLogError` when the file is missing, unreadable or
    ///   not an LMDB file at all; or what `body` throws.
    public static func salvageJSONLines(path: String, _ body: (String) throws -> Void) throws -> SalvageSummary {
        // The trace's own version when liblmdb can still read its metadata; else 1.
        let version = (try? Trace(path: path).formatVersion) ?? 1
        try body("{\"format\":\"lifecycle-trace\",\"version\":\(version)}\n")
        var summary = SalvageSummary()
        var symbols: SymbolTable?
        // Whether records end with a checksum (layout 3): known when liblmdb opens the file; else
        // each record counts as checksummed when its check matches (see `verified`).
        var checksummed: Bool?
        do {
            let trace = try Trace(path: path)
            symbols = trace.symbols
            checksummed = trace.databases.checksummed
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
        if checksummed == nil { checksummed = scanLayout(scan).map { $0 >= EventCodec.checksumLayoutVersion } }
        let table = symbols ?? scanSymbols(scan, checksummed: checksummed)
        try scanEvents(scan, symbols: table, checksummed: checksummed, after: summary.lastSeq, into: &summary, body)
        return summary
    }

    /// The bytes of a record found in the pages, without its checksum: `nil` when the trace has
    /// checksums and this one fails (such a record is never presented as recovered). When it is
    /// not known whether the trace has them, a record whose last four bytes are its check is taken
    /// as checksummed (a record of an earlier layout matches by chance once in four billion), and
    /// any other as a record of an earlier layout, which the decoder then checks as before.
    private static func verified(_ value: [UInt8], key: UInt64, checksummed: Bool?) -> [UInt8]? {
        let body = value.withUnsafeBytes { RecordChecksum.body(of: $0, key: key).map { Array($0) } }
        switch checksummed {
        case true?: return body
        case false?: return value
        case nil: return body ?? value
        }
    }

    /// The stored layout, from the `layout` entry of the meta database found in the file's pages
    /// (the newest when copies differ); `nil` when none is left.
    private static func scanLayout(_ scan: borrowing LMDBPageScan) -> UInt32? {
        let key = Array(TraceLayout.layoutKey.utf8)
        var layout: UInt32?
        for page in 2..<max(2, scan.pageCount) {
            for entry in scan.leafEntries(ofPage: page) ?? [] where entry.key == key && entry.value.count == 4 {
                let found = entry.value.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if found <= EventCodec.layoutVersion { layout = max(layout ?? 0, found) }
            }
        }
        return layout
    }

    /// The strings of every leaf of the symbols database left in the file
    /// (4-byte big-endian ids, UTF-8 strings), from id 0 for as long as they
    /// run on without a gap.
    private static func scanSymbols(_ scan: borrowing LMDBPageScan, checksummed: Bool?) -> SymbolTable {
        var found: [UInt32: String] = [:]
        for page in 2..<max(2, scan.pageCount) {
            guard let entries = scan.leafEntries(ofPage: page),
                  entries.filter({ $0.key.count == 4 }).count * 2 > entries.count else { continue }
            for entry in entries where entry.key.count == 4 {
                let id = entry.key.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let value = verified(entry.value, key: UInt64(id), checksummed: checksummed) else { continue }
                let s = String(decoding: value, as: UTF8.self)
                guard s.utf8.elementsEqual(value) else { continue }
                if found[id] == nil { found[id] = s }
            }
        }
        var table = SymbolTable()
        while let s = found[UInt32(table.count)] { table.append(s, indexed: false) }
        return table
    }

    /// A leaf page of event records and the seqs it spans.
    private struct Leaf { var first: UInt64; var last: UInt64; var page: Int }

    /// Writes the events with seqs above `after` found in the file's leaf
    /// pages, in seq order, each once.
    private static func scanEvents(_ scan: borrowing LMDBPageScan, symbols: SymbolTable, checksummed: Bool?, after: UInt64,
                                   into summary: inout SalvageSummary, _ body: (String) throws -> Void) throws {
        // Pass 1: which pages hold event records above `after`, and their seq range.
        // Kept per page, not per event, so memory grows with the file's pages.
        var leaves: [Leaf] = []
        for page in 2..<max(2, scan.pageCount) {
            guard let run = eventRecords(scan.leafEntries(ofPage: page)), let last = run.last, last.seq > after else { continue }
            leaves.append(Leaf(first: run[0].seq, last: last.seq, page: page))
        }
        // Seqs are dense and every record takes at least a 16-byte node, so no seq can lie
        // beyond what the file's pages could ever hold: a key damaged into a huge number
        // (or a free-page record's transaction id) is not an event.
        let highest = after + UInt64(scan.pageCount) * UInt64(scan.pageSize / 16)
        // The fullest copy of a range first; stale copies of it then add nothing.
        leaves.sort { ($0.first, $1.last, $0.page) < ($1.first, $0.last, $1.page) }
        // Pass 2: decode and write in seq order.
        var next = after + 1
        for leaf in leaves where leaf.last >= next && leaf.first <= highest {
            guard let run = eventRecords(scan.leafEntries(ofPage: leaf.page)) else { continue }
            for (seq, entry) in run {
                guard seq >= next, seq <= highest else { continue }
                // A record that does not decode may be whole in another copy of its page.
                guard let event = decode(entry.value, seq: seq, symbols, checksummed: checksummed)
                    ?? alternative(seq, in: leaves, besides: leaf.page, scan, symbols, checksummed: checksummed) else { continue }
                if seq > next { summary.missing.append(next...(seq - 1)) }
                try body(event.jsonLine + "\n")
                summary.events += 1
                summary.lastSeq = seq
                next = seq + 1
            }
        }
    }

    private static func decode(_ value: [UInt8], seq: UInt64, _ symbols: SymbolTable, checksummed: Bool?) -> LifecycleEvent? {
        guard let body = verified(value, key: seq, checksummed: checksummed) else { return nil }
        return try? body.withUnsafeBytes { try EventCodec.decode($0, symbols: symbols) }
    }

    /// The record of `seq` from another leaf page that holds it and where it decodes (rare: only
    /// for a record that is damaged in the first copy found, so a linear search is enough).
    private static func alternative(_ seq: UInt64, in leaves: [Leaf], besides page: Int,
                                    _ scan: borrowing LMDBPageScan, _ symbols: SymbolTable, checksummed: Bool?) -> LifecycleEvent? {
        for leaf in leaves where leaf.page != page && leaf.first <= seq && seq <= leaf.last {
            for (other, entry) in eventRecords(scan.leafEntries(ofPage: leaf.page)) ?? [] where other == seq {
                if let event = decode(entry.value, seq: seq, symbols, checksummed: checksummed) { return event }
            }
        }
        return nil
    }

    /// The event records of a leaf page, with their seqs. Seqs are dense, so
    /// a leaf of the events database holds a run of consecutive seqs, one
    /// per node: seq − node position is the same for every record. The
    /// records that agree on the most common such offset are kept, so a key
    /// damaged into another number is left out instead of taking the page's
    /// place in the order. `nil` when the page holds no such run.
    private static func eventRecords(_ entries: [LMDBPageScan.Entry]?) -> [(seq: UInt64, entry: LMDBPageScan.Entry)]? {
        guard let entries else { return nil }
        var offsets: [UInt64: Int] = [:]
        var keyed: [(seq: UInt64, entry: LMDBPageScan.Entry)] = []
        keyed.reserveCapacity(entries.count)
        for entry in entries where entry.key.count == 8 {
            let seq = entry.key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard seq > UInt64(entry.index) else { continue }  // seqs start at 1
            keyed.append((seq, entry))
            offsets[seq - UInt64(entry.index), default: 0] += 1
        }
        // The most common offset; on a tie the lowest, so that the choice never depends on hashing.
        guard let offset = offsets.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key,
              let count = offsets[offset], count * 2 >= keyed.count || count >= 4 else { return nil }
        let run = keyed.filter { $0.seq - UInt64($0.entry.index) == offset }
        return run.isEmpty ? nil : run
    }
}
