import LifecycleLogRecorder

/// Consecutive events decoded for replay, with the ``ReplayExtra``s they
/// point at and the names their ``Name``s mean.
package struct ReplayBatch: Sendable {
    /// The seq of ``events``' first element.
    package var firstSeq: UInt64
    package var events: [ReplayEvent] = []
    package var extras: [ReplayExtra] = []
    /// The trace's symbol table as of this batch (a trace only ever appends to it).
    package var symbols: [String]

    package init(firstSeq: UInt64, symbols: [String]) {
        self.firstSeq = firstSeq
        self.symbols = symbols
    }
}
