import Foundation

/// Consecutive events decoded for replay, with the ``ReplayExtra``s they
/// point at and the names their ``Name``s mean.
struct ReplayBatch: Sendable {
    /// The seq of ``events``' first element.
    var firstSeq: UInt64
    var events: [ReplayEvent] = []
    var extras: [ReplayExtra] = []
    /// The trace's symbol table as of this batch (a trace only ever appends to it).
    var symbols: [String]

    init(firstSeq: UInt64, symbols: [String]) {
        self.firstSeq = firstSeq
        self.symbols = symbols
    }

    /// The extra fields of `event`, one of ``events``.
    func extra(of event: ReplayEvent) -> ReplayExtra? {
        event.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(event.extraIndex)]
    }
}

/// Replays a trace file on two threads: a reader decodes batches of events
/// (liblmdb, the fault guard, the decoder) while the caller's thread folds
/// the previous batch through the reducer. The reader runs at most
/// ``depth`` batches ahead, so memory stays a few batches, whatever the
/// trace's length. Output is the same as one thread's: the reducer sees
/// every event, in order, on one thread.
enum PipelinedReplay {
    /// How many decoded batches may wait for the reducer.
    static let depth = 2

    /// Decodes the trace at `path` on a reader thread and calls `body` with
    /// each batch, in order, on the calling thread. Throws what the reader
    /// met (after the batches before it) or what `body` throws (after
    /// stopping the reader).
    static func forEachBatch(of path: String, _ body: (borrowing ReplayBatch) throws -> Void) throws {
        let channel = BatchChannel(depth: depth)
        let reader = Thread {
            do {
                let trace = try Trace(path: path)
                try trace.decodeBatches { batch in channel.put(&batch) }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
        reader.stackSize = 1 << 20
        reader.start()
        defer { channel.cancelAndWait() }
        while let batch = channel.take() {
            try body(batch)
            channel.recycle(batch)
        }
        if let error = channel.failure { throw error }
    }
}

/// The hand-over between the reader thread and the replaying thread: a
/// bounded queue of full batches and a pool of emptied ones to reuse.
/// Every stored property is read and written only while holding `condition`.
private final class BatchChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let depth: Int
    private var full: [ReplayBatch] = []
    private var spare: [ReplayBatch] = []
    private var finished = false
    private var cancelled = false
    private var error: (any Error)?

    init(depth: Int) { self.depth = depth }

    /// Reader: hands over `batch` (waiting while `depth` batches wait) and
    /// takes an empty buffer in its place. Returns `false` once the
    /// replaying side has stopped.
    func put(_ batch: inout ReplayBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while full.count >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        var empty = spare.popLast() ?? ReplayBatch(firstSeq: 0, symbols: [])
        empty.symbols = batch.symbols
        swap(&empty, &batch)
        full.append(empty)
        condition.broadcast()
        return true
    }

    /// Reader: no more batches; `error` is why, if the trace could not be read to its end.
    func finish(_ error: (any Error)?) {
        condition.lock()
        self.error = error
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Replaying side: the next batch, or `nil` after the last.
    func take() -> ReplayBatch? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty && !finished { condition.wait() }
        if full.isEmpty { return nil }
        let batch = full.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Replaying side: gives a used batch's buffers back for the reader to fill again.
    func recycle(_ batch: ReplayBatch) {
        var batch = batch
        batch.events.removeAll(keepingCapacity: true)
        batch.extras.removeAll(keepingCapacity: true)
        condition.lock()
        if spare.count < depth + 1 { spare.append(batch) }
        condition.unlock()
    }

    /// What stopped the reader early, if anything.
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return error
    }

    /// Replaying side, when it is done or gives up: stops the reader and waits until it has finished.
    func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
