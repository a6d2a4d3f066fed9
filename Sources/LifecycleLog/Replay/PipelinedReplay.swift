import Dispatch

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
        DispatchQueue(label: "LifecycleLog.replay-reader").async {
            do {
                let trace = try Trace(path: path)
                try trace.decodeBatches { batch in channel.put(&batch) }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
        defer { channel.cancelAndWait() }
        while let batch = channel.take() {
            try body(batch)
            channel.recycle(batch)
        }
        if let error = channel.failure { throw error }
    }
}

/// The hand-over between the reader and the replaying thread: a bounded
/// queue of full batches and a pool of emptied ones to reuse, under one
/// mutex, with semaphores counting free slots, full batches and the reader's end.
private final class BatchChannel: Sendable {
    private struct State {
        var full: [ReplayBatch] = []
        var spare: [ReplayBatch] = []
        var finished = false
        var cancelled = false
        var error: (any Error)?
    }

    private let state = Locked(State())
    /// Free places in the queue: the reader waits on it when it is `depth` batches ahead.
    private let free: DispatchSemaphore
    /// Signalled once per full batch and once when the reader finishes.
    private let filled = DispatchSemaphore(value: 0)
    /// Signalled once, when the reader has finished.
    private let done = DispatchSemaphore(value: 0)

    init(depth: Int) { free = DispatchSemaphore(value: depth) }

    /// Reader: hands over `batch` (waiting while the queue is full) and takes
    /// an empty buffer in its place. Returns `false` once the replaying side has stopped.
    func put(_ batch: inout ReplayBatch) -> Bool {
        free.wait()
        // A used batch is emptied here, on the reader's thread, not where the replaying side
        // gives it back: releasing its extras (an `open`'s value, a launch's scenes) is about
        // 25 instructions an event, and the replaying thread is the slower of the two.
        var empty = state.withLock { $0.spare.popLast() } ?? ReplayBatch(firstSeq: 0, symbols: [])
        empty.events.removeAll(keepingCapacity: true)
        empty.extras.removeAll(keepingCapacity: true)
        empty.symbols = batch.symbols
        swap(&empty, &batch)
        let full = empty
        let accepted = state.withLock { s -> Bool in
            if s.cancelled { return false }
            s.full.append(full)
            return true
        }
        if accepted { filled.signal() }
        return accepted
    }

    /// Reader: no more batches; `error` is why, if the trace could not be read to its end.
    func finish(_ error: (any Error)?) {
        state.withLock { s in
            s.error = error
            s.finished = true
        }
        filled.signal()
        done.signal()
    }

    /// Replaying side: the next batch, or `nil` after the last.
    func take() -> ReplayBatch? {
        filled.wait()
        let batch = state.withLock { s -> ReplayBatch? in s.full.isEmpty ? nil : s.full.removeFirst() }
        if batch != nil { free.signal() }
        return batch
    }

    /// Replaying side: gives a used batch's buffers back for the reader to empty and fill again.
    func recycle(_ used: consuming ReplayBatch) {
        let batch = used
        state.withLock { s in
            if s.spare.count < PipelinedReplay.depth + 1 { s.spare.append(batch) }
        }
    }

    /// What stopped the reader early, if anything.
    var failure: (any Error)? { state.withLock { $0.error } }

    /// Replaying side, when it is done or gives up: stops the reader and waits until it has finished.
    func cancelAndWait() {
        state.withLock { $0.cancelled = true }
        free.signal()  // a reader waiting for room wakes, sees the cancellation and stops
        done.wait()
        // Give back the places of batches that were handed over but never taken:
        // libdispatch traps when a semaphore is released below its initial value.
        let untaken = state.withLock { s -> Int in
            defer { s.full.removeAll() }
            return s.full.count
        }
        for _ in 0..<untaken { free.signal() }
    }
}
