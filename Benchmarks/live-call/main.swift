// The cost of a LifecycleRecorder call on the app's thread with live checking on and off
// (BENCHMARKS.md, "Live checking"), built in release by scripts/bench-live-call.
//   main.swift CALLS MODE [BATCHING]
//     MODE: plain (a MemorySink) or live (a LiveCheck forwarding to one)
//     BATCHING: app (the default batching: commits, and the live fold, run on other threads while
//     the calls go on, back to back: a flood), paced (the same, with a 200 µs pause after every
//     64 calls, still far more than an app records) or pending (nothing is committed until the
//     loop ends: the call alone)
// The recorder and the live check are given room for every event (no drop, no stop), so that
// both modes do the same work.
// The calls are those of Benchmarks/recorder-call (an app's mix of writes, reads, phases, opens,
// saves and marks).
import Glibc
import LifecycleLogRules

let args = Array(CommandLine.arguments.dropFirst())
let calls = args.count > 0 ? Int(args[0]) ?? 200_000 : 200_000
let mode = args.count > 1 ? args[1] : "plain"
let batching = args.count > 2 ? args[2] : "app"
let windows = (0..<6).map { "window-\($0)" }
let keys = (0..<4).map { "draft-\($0)" }
let memory = MemorySink()
let live = mode == "live" ? try LiveCheck(forwardingTo: memory, maxQueuedEvents: 1 << 30) : nil
let recorder = LifecycleRecorder(sink: live ?? memory,
                                 durability: batching == "pending" ? .batched(maxDelayMilliseconds: 60_000, maxEvents: 1 << 30) : .batched(),
                                 maxPendingEvents: 1 << 30)
recorder.launch(platform: .macOS, scenes: [SceneDeclaration(id: "editor", kind: .windowGroup)])
/// The calls, in a function of their own so that callgrind counts them alone
/// (`--toggle-collect=*benchCalls*`): the calling thread's CPU ns per call.
@inline(never) func benchCalls(_ recorder: LifecycleRecorder) -> Double {
    var pause = timespec(tv_sec: 0, tv_nsec: 200_000)
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    let start = Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
    for i in 0..<calls {
        if batching == "paced", i % 64 == 63 { nanosleep(&pause, nil) }
        let window = windows[i % 6]
        switch i % 10 {
        case 0, 1, 2: recorder.write(key: keys[i & 3], scope: .scene, window: window)
        case 3, 4: recorder.read(key: keys[i & 3], scope: .scene, window: window)
        case 5: recorder.phase(.active, window: window)
        case 6: recorder.phase(.inactive, window: window)
        case 7: recorder.open(window: window, scene: "editor")
        case 8: recorder.save(window: window)
        default: recorder.mark("step")
        }
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return (Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec) - start) / Double(calls)
}
let cpu = benchCalls(recorder)
try recorder.close()
print("\(mode) (\(batching)): \(calls) calls, \(Int(cpu.rounded())) ns of the calling thread's CPU per call; \(memory.events.count) events recorded, \(live?.checkedEventCount ?? 0) checked live")
