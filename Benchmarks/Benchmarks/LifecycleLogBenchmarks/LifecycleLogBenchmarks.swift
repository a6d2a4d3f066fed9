// The ordo-one/benchmark suite: each LifecycleLog measurement next to the C
// (or SQLite) baseline that does the same work on the same bytes, with
// distributions, allocation counts and peak memory. Run it with
//   swift package --package-path Benchmarks --disable-sandbox benchmark
// The ratios themselves are printed by `lifecycle-bench` (scripts/bench).
import Benchmark
import CBaseline
import Foundation
import LifecycleLog

/// A 1 M-event generated trace, its events and encoded records, made once per process.
final class Fixture: @unchecked Sendable {  // written once, in init, then only read
    static let shared = Fixture()
    let events: [LifecycleEvent]
    let trace: String
    let work: String
    var records = baseline_records()

    private init() {
        work = NSTemporaryDirectory() + "lifecycle-ordo"
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        trace = work + "/trace.lmdb"
        let options = TraceGenerator.Options(events: 1_000_000, seed: 42, windows: 6)
        if !FileManager.default.fileExists(atPath: trace) { try! TraceInterchange.generate(options, to: trace) }  // `!`: a benchmark without its fixture cannot run
        var events: [LifecycleEvent] = []
        events.reserveCapacity(options.events)
        TraceGenerator.generate(options) { events.append($0) }
        self.events = events
        precondition(baseline_load_records(trace, &records) == 0)
    }
}

let batch = 16_384

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 7)

    // (b) Replay with every rule, and the C cursor scan of the same file.
    Benchmark("(b) replay 1M events, every rule (Replayer.replay)") { benchmark in
        let trace = Fixture.shared.trace
        benchmark.startMeasurement()
        blackHole(try Replayer.replay(trace) { _ in })
    }
    Benchmark("(b) C cursor scan of the same file") { benchmark in
        let trace = Fixture.shared.trace
        var checksum: UInt64 = 0
        benchmark.startMeasurement()
        blackHole(baseline_lmdb_scan(trace, &checksum))
    }

    // (a) Batched append, 16,384 events per synced commit, and C appending the same encoded bytes.
    Benchmark("(a) append 1M events (TraceWriter, 16,384 per synced commit)") { benchmark in
        let fixture = Fixture.shared
        let path = fixture.work + "/s-append.lmdb"
        unlink(path)
        benchmark.startMeasurement()
        let writer = try TraceWriter(path: path, sharing: .exclusive)
        for start in stride(from: 0, to: fixture.events.count, by: batch) {
            try writer.append(fixture.events[start..<min(start + batch, fixture.events.count)])
        }
    }
    Benchmark("(a) C mdb_put(MDB_APPEND) of the same records") { benchmark in
        let fixture = Fixture.shared
        benchmark.startMeasurement()
        precondition(baseline_lmdb_append(fixture.work + "/c-append.lmdb", &fixture.records, batch) == 0)
    }

    // (a) One recorder call on the app's thread (commits run on the recorder's queue).
    Benchmark("(a) LifecycleRecorder.record, one call", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let fixture = Fixture.shared
        let path = fixture.work + "/r-caller.lmdb"
        unlink(path)
        let recorder = try LifecycleRecorder(path: path, durability: .batched(maxDelayMilliseconds: 60_000, maxEvents: 1 << 30))
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { recorder.record(.mark(label: "step \(i & 7)")) }
        benchmark.stopMeasurement()
        try recorder.close()
    }

    // (c) The same records in SQLite (WAL, batched), written and scanned.
    Benchmark("(c) SQLite insert of the same records (WAL, batched)") { benchmark in
        let fixture = Fixture.shared
        benchmark.startMeasurement()
        precondition(baseline_sqlite_insert(fixture.work + "/events.sqlite", &fixture.records, batch) == 0)
    }
}
