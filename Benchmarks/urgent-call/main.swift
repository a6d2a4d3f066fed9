// How long a recorder call that must reach the disk before it returns (`.background`, `terminate`)
// holds the calling thread when the collector cannot be reached: BENCHMARKS.md, "A recorder call
// with the collector unreachable". Built by scripts/bench-urgent-call against a checkout.
//
//   urgent-call SCENARIO CALLS
//
// SCENARIO: refused (nothing listens on the port), silent (a socket that listens and never answers:
// the connection completes, the handshake gets no reply), unroutable (10.255.255.1), unresolvable
// (a host name that does not resolve). Prints one line: the scenario, the calls, then the median and
// the worst wall time of the urgent calls in milliseconds, and the worst of every call.
import Dispatch
import LifecycleLogRecorder
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "silent"
let calls = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes connections, nobody answers.
func silentListener() -> (fd: Int32, port: Int) {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = listen(fd, 64)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// A port nothing listens on: bound, then closed.
func closedPort() -> Int {
    let (fd, port) = silentListener()
    close(fd)
    return port
}

var host = "127.0.0.1"
var port = 0
var keep: Int32 = -1
switch scenario {
case "refused": port = closedPort()
case "silent": (keep, port) = silentListener()
case "unroutable": host = "10.255.255.1"; port = 7777
case "unresolvable": host = "collector.lifecyclelog.invalid"; port = 7777
default: fatalError("unknown scenario \(scenario)")
}

let folder = "/tmp/urgent-call-\(getpid())"
mkdir(folder, 0o755)
let recorder = LifecycleRecorder(sink: CollectorSink(host: host, port: port, fallback: SpoolSink(path: folder + "/spool.jsonl")))
recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

var urgent: [Double] = []
var worstAny = 0.0
for _ in 0..<calls {
    for phase in [LifecyclePhase.active, .inactive, .background] {
        let start = ContinuousClock.now
        recorder.phase(phase)
        let took = milliseconds(.now - start)
        worstAny = max(worstAny, took)
        if phase == .background { urgent.append(took) }
    }
    usleep(20_000)  // the app does something between phase changes
}
let start = ContinuousClock.now
recorder.terminate()
urgent.append(milliseconds(.now - start))
urgent.sort()
let median = urgent[urgent.count / 2]
/// `12.34`: two decimals, without Foundation.
func text(_ ms: Double) -> String {
    let hundredths = Int((ms * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
print(scenario, urgent.count, text(median), text(urgent.last ?? 0), text(max(worstAny, urgent.last ?? 0)))
try? recorder.close()
if keep >= 0 { close(keep) }
