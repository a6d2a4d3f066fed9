// The cost of one LifecycleRecorder call on the app's thread, built against two
// checkouts of the package (this one and an older commit) by scripts/bench-recorder-call,
// so that both are measured on the same machine in the same minutes. It uses only API
// both have: LifecycleRecorder(path:durability:) and the per-kind calls an app makes.
//   main.swift CALLS MODE DIR     MODE: app (the default batching) or pending (nothing committed)
import Glibc
import LifecycleLog

func seconds(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let args = Array(CommandLine.arguments.dropFirst())
let calls = args.count > 0 ? Int(args[0]) ?? 200_000 : 200_000
let mode = args.count > 1 ? args[1] : "app"
let dir = args.count > 2 ? args[2] : "/tmp"
let windows = (0..<6).map { "window-\($0)" }
let keys = (0..<4).map { "draft-\($0)" }
var bestWall = Double.infinity, bestCPU = Double.infinity
for round in 0..<5 {
    let path = "\(dir)/recorder-call-\(round).lmdb"
    _ = unlink(path)
    _ = unlink(path + "-lock")
    let durability: LifecycleRecorder.Durability = mode == "pending" ? .batched(maxDelayMilliseconds: 60_000, maxEvents: 1 << 30) : .batched()
    let recorder = try LifecycleRecorder(path: path, durability: durability)
    let wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_THREAD_CPUTIME_ID)
    for i in 0..<calls {
        // A mix like a session's: writes and reads of a window's keys, phases, opens, saves, marks.
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
    bestWall = min(bestWall, (seconds(CLOCK_MONOTONIC) - wall) / Double(calls) * 1e9)
    bestCPU = min(bestCPU, (seconds(CLOCK_THREAD_CPUTIME_ID) - cpu) / Double(calls) * 1e9)
    try recorder.close()
}
print("\(Int(bestWall.rounded())) \(Int(bestCPU.rounded()))")
