import Foundation
import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage
// `events`, `replayFindings`, `assertFindings`, `launch`, `repositoryRoot` and what the halves of
// `AppRulesEverywhereTests` and `BoundedFindingTests` share: LifecycleLogRulesTestSupport, shared with
// LifecycleLogRulesTests. `@_exported`: every file of the target sees them without an import of its own.
@_exported import LifecycleLogRulesTestSupport

/// A unique temporary folder, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init(_ name: String = #function) {
        let base = FileManager.default.temporaryDirectory.path
        let clean = name.filter { $0.isLetter || $0.isNumber }
        path = "\(base)/lifecyclelog-\(clean)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)  // `!`: a test cannot run without it
    }

    deinit {
        _ = try? runProgram("/bin/chmod", ["-R", "u+w", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    /// The names in the folder, sorted.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// The `replay` executable built beside the tests.
let replayExecutable: String = {
    #if os(Linux)
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("replay").path
    #else
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
    return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("replay").path
    #endif
}()

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var signaled: Bool
    /// Killed after the `timeout` given to ``runProgram(_:_:stdin:environment:timeout:currentDirectory:)``.
    var timedOut = false
}

/// Runs a program and waits for it; with a `timeout` (seconds), kills it with SIGKILL when it
/// runs longer (a command that hangs fails its test instead of holding up the run).
@discardableResult
func runProgram(_ program: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
                timeout: TimeInterval? = nil, currentDirectory: String? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    // `--format github` appends to the job summary GITHUB_STEP_SUMMARY names: tests run in Actions
    // must not, so the caller's is dropped unless a test passes an environment of its own.
    process.environment = environment ?? ProcessInfo.processInfo.environment.filter { $0.key != "GITHUB_STEP_SUMMARY" }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    let watch = Locked((finished: false, killed: false))
    if let timeout {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            watch.withLock { watch in
                guard !watch.finished else { return }
                watch.killed = true
                kill(pid, SIGKILL)
            }
        }
    }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let killed = watch.withLock { watch in
        watch.finished = true
        return watch.killed
    }
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         signaled: process.terminationReason == .uncaughtSignal, timedOut: killed)
}

/// Runs the built `replay` with `arguments`.
@discardableResult
func replay(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
    try runProgram(replayExecutable, arguments, stdin: stdin)
}

/// One event of every kind, with unknown fields, unicode, exact large and
/// fractional numbers, and an unknown kind.
let everyKindTrace = [
    #"{"event":"launch","t":0,"platform":"visionOS","scenes":[{"id":"main","kind":"WindowGroup","title":"Notizen ✏️","x-extra":[1,2]},{"id":"space","kind":"ImmersiveSpace","for":"Space.ID"},{"id":"new","kind":"UtilityWindow"}],"reason":"background","app":"com.example","os":"2.1","build":"7","device":{"model":"Vision Pro","memory":17179869184}}"#,
    #"{"event":"open","t":1.5,"window":"fenêtre-1","scene":"space","value":{"id":18446744073709551616,"neg":-0.000123,"exp":1E+400,"nested":[null,true,false,"\u0000\"\\\n"]},"restored":false}"#,
    #"{"event":"phase","t":2,"phase":"active","window":"fenêtre-1","note":"日本語"}"#,
    #"{"event":"phase","t":2,"phase":"inactive"}"#,
    #"{"event":"delegate","t":3,"callback":"sceneWillConnect","window":"fenêtre-1"}"#,
    #"{"event":"delegate","t":3,"callback":"customCallback"}"#,
    #"{"event":"write","t":4,"key":"notes","scope":"shared","window":"fenêtre-1","base":9007199254740993}"#,
    #"{"event":"read","t":5,"key":"🔑","scope":"app","version":0}"#,
    #"{"event":"read","t":5,"key":"draft","scope":"scene","window":"fenêtre-1"}"#,
    #"{"event":"save","t":6,"keys":["notes","🔑"],"window":"fenêtre-1","store":"SwiftData"}"#,
    #"{"event":"save","t":6,"keys":[]}"#,
    #"{"event":"save","t":6}"#,
    #"{"event":"activity","t":7,"name":"audio","state":"start","window":"fenêtre-1"}"#,
    #"{"event":"activity","t":8,"name":"audio","state":"stop"}"#,
    #"{"event":"mark","t":9,"label":"step 3: open second note \ud83d\ude00"}"#,
    #"{"event":"dismiss","t":10,"window":"fenêtre-1","reason":"user"}"#,
    #"{"event":"focusChange","t":11,"window":"w","payload":{"a":[{}],"b":""}}"#,
    #"{"event":"terminate","t":123456789012.25,"reason":"quit"}"#,
]

/// Replaces the value stored under `key` in database `name` of the trace at `path` (to damage it on purpose).
func overwrite(_ path: String, database name: String, key: [UInt8], with value: [UInt8]) throws {
    let env = try LMDBEnvironment.open(path: path, mode: .readWriteExclusive)
    try env.write { txn in
        let db = try XCTUnwrap(try txn.openDatabase(name, create: false))
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try txn.put(db, key: k, value: v, append: false) } }
    }
}

/// Starts `replay record path` with its standard input left open (write events to `input`, close
/// it to end the recording).
func startRecord(_ path: String) throws -> (process: Process, input: FileHandle, stderr: Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: replayExecutable)
    process.arguments = ["record", path]
    let input = Pipe(), err = Pipe()
    process.standardInput = input
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return (process, input.fileHandleForWriting, err)
}
