extension TraceWriter {
    /// For each client whose events the trace holds, the highest delivery number `H` such that
    /// its events `1…H` are all in the trace, in order (spec/collector-protocol.md, "Resuming"):
    /// what the collector answers a client that resumes. Reads every event once; keeps one number
    /// per client.
    ///
    /// Counted in order, not as a maximum: a number that does not follow the client's last one
    /// (a forged `n` stored by a collector older than issue 28, which stored any connection's
    /// deliveries) is not counted, so it can never make the collector skip the client's real
    /// events as ones it already holds.
    func highestDeliveries() throws(LifecycleLogError) -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        do {
            try environment.read { txn in
                var symbols = SymbolTable()
                try databases.loadSymbols(into: &symbols, in: txn, path: path)
                try txn.forEach(databases.events) { key, value in
                    let event = try databases.decode(value, seq: TraceLayout.seq(fromKey: key) ?? 0, symbols: symbols)
                    if let delivery = TraceInterchange.Delivery(event), delivery.n == (result[delivery.client] ?? 0) &+ 1 {
                        result[delivery.client] = delivery.n
                    }
                    return true
                }
            }
        } catch let error as LifecycleLogError {
            throw error.at(path: path)
        } catch {
            throw LifecycleLogError(.io, "\(error)", path: path)
        }
        return result
    }
}
