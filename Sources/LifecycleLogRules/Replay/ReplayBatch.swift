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

extension LifecycleReducer {
    /// Folds every event of `batch`, in order, handing each group of settled findings to
    /// `settled`. The per-event loop lives here, beside the reducer, so that the `.lmdb` replay
    /// in `LifecycleLog` crosses the module boundary once a batch, not once an event.
    ///
    /// - Parameter progress: called with the seq replayed, every 65,536 events.
    package mutating func apply(_ batch: borrowing ReplayBatch, progress: ((UInt64) -> Void)?,
                                settled: ([Finding]) throws -> Void) throws {
        names.adopt(batch.symbols)
        var seq = batch.firstSeq
        for event in batch.events {
            apply(seq: seq, event, extras: batch.extras)
            if hasSettled { try settled(takeSettledFindings()) }
            if let progress, seq & 0xFFFF == 0 { progress(seq) }
            seq += 1
        }
    }
}

/// What the model holds just after an event, for a report that counts as it replays
/// (`replay stats`): read inside the reducer's module, so that the report copies no part of it.
package struct AppliedEvent {
    /// The event's seq.
    package var seq: UInt64
    /// The event, its names the batch's symbol ids.
    package var event: ReplayEvent
    /// The windows open in the current process (the event's, but for a `mark`).
    package var openWindows: Int
    /// Whether the event is a `terminate` that ended its run cleanly.
    package var endedRunCleanly: Bool
}

extension LifecycleReducer {
    /// Folds every event of `batch`, in order, as ``apply(_:progress:settled:)`` does, handing
    /// each event with what the model then holds to `observe` before the findings it settled
    /// go to `settled` (so a finding's seq has always been observed first).
    package mutating func apply(_ batch: borrowing ReplayBatch, observe: (borrowing AppliedEvent) throws -> Void,
                                settled: ([Finding]) throws -> Void) throws {
        names.adopt(batch.symbols)
        var seq = batch.firstSeq
        for event in batch.events {
            apply(seq: seq, event, extras: batch.extras)
            try observe(AppliedEvent(seq: seq, event: event, openWindows: model.openWindows.count,
                                     endedRunCleanly: event.kind == .terminate && model.run.terminateSeq == seq))
            if hasSettled { try settled(takeSettledFindings()) }
            seq += 1
        }
    }
}
