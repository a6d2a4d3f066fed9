// The cost of one LifecycleRecorder call on the caller's thread when the sink is a
// CollectorSink streaming to a running collector, next to the same calls into a
// MemorySink. Built by scripts/bench-collector against the release build of
// LifecycleLogRecorder (swiftc -O), so it needs no package of its own.
// Usage: call-cost PORT [CALLS]
import LifecycleLogRecorder

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let port = Int(CommandLine.arguments[1])!
let calls = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 200_000

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func measure(_ name: String, _ makeSink: () -> any RecordingSink) throws {
    var fastest = Double.infinity
    var total = Double.infinity
    for _ in 0..<3 {
        // No limit on waiting events: the loop records faster than acknowledged batches
        // arrive, and the default limit would end the recording part-way (and time the drops).
        let recorder = LifecycleRecorder(sink: makeSink(), durability: .batched(maxDelayMilliseconds: 50, maxEvents: 1024),
                                         maxPendingEvents: .max)
        var calling = 0.0
        let all = try seconds {
            calling = seconds {
                for i in 0..<calls { recorder.write(key: "k\(i & 63)", scope: .shared, window: "w1") }
            }
            try recorder.close()
        }
        if let error = recorder.lastError { print("error: \(error)") }
        fastest = min(fastest, calling / Double(calls))
        total = min(total, all)
    }
    print("\(name): \(Int((fastest * 1e9).rounded())) ns per call on the caller's thread; \(calls) events delivered in \(Double(Int(total * 100)) / 100) s (\(Int(Double(calls) / total)) events/s)")
}

try measure("MemorySink") { MemorySink() }
try measure("CollectorSink") { CollectorSink(host: "127.0.0.1", port: port, process: "bench") }
