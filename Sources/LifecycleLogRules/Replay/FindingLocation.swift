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
        let name = VisibleText.escape(trace)
        if let line { return "\(name):\(line):" }
        return "\(name): seq \(seq):"
    }

    /// The seqs that go after the message: `(seq 13; related: 6, 7)` when the
    /// location is a line (so the seq is not lost), `(related: 6, 7)` when it
    /// is the seq; empty when there is nothing to add.
    public var seqNote: String {
        let related = self.related.isEmpty ? nil : "related: " + self.related.map(String.init).joined(separator: ", ")
        if line != nil { return " (seq \(seq)" + (related.map { "; " + $0 } ?? "") + ")" }
        return related.map { " (\($0))" } ?? ""
    }
}
