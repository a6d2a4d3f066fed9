extension Finding {
    /// Where the finding is, in the compiler style that editors and CI logs
    /// turn into links, followed by a colon.
    ///
    /// - A finding of a JSON Lines trace (``line`` known) is at the file line
    ///   of its event: `trace.jsonl:18:` for the event at seq 13 on line 18.
    /// - A finding of a trace file (`.lmdb`, which has no lines) is at its
    ///   seq: `trace.lmdb: seq 13:`. The space after the first colon keeps
    ///   editors from reading the seq as a line number, and it is the form
    ///   every error of `replay` uses for a seq.
    ///
    /// Control characters in `trace` are escaped (`VisibleText`).
    public func location(in trace: String) -> String {
        var out: [UInt8] = []
        appendLocation(in: trace, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``location(in:)`` appended to `out` as UTF-8 (the text report writes its lines as bytes).
    package func appendLocation(in trace: String, to out: inout [UInt8]) {
        out.append(contentsOf: VisibleText.escape(trace).utf8)
        if let line {
            out.append(UInt8(ascii: ":"))
            out.appendDecimal(line)
        } else {
            out.append(contentsOf: ": seq ".utf8)
            out.appendDecimal(seq)
        }
        out.append(UInt8(ascii: ":"))
    }

    /// The seqs that go after the message: `(seq 13; related: 6, 7)` when the
    /// location is a line (so the seq is not lost), `(related: 6, 7)` when it
    /// is the seq; empty when there is nothing to add.
    public var seqNote: String {
        var out: [UInt8] = []
        appendSeqNote(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``seqNote`` appended to `out` as UTF-8.
    package func appendSeqNote(to out: inout [UInt8]) {
        if line != nil {
            out.append(contentsOf: " (seq ".utf8)
            out.appendDecimal(seq)
            if !related.isEmpty { out.append(contentsOf: "; ".utf8) }
        } else if !related.isEmpty {
            out.append(contentsOf: " (".utf8)
        } else {
            return
        }
        if !related.isEmpty {
            out.append(contentsOf: "related: ".utf8)
            for (i, seq) in related.enumerated() {
                if i > 0 { out.append(contentsOf: ", ".utf8) }
                out.appendDecimal(seq)
            }
        }
        out.append(UInt8(ascii: ")"))
    }
}
