// libFuzzer target: any bytes as a JSON Lines trace. Decoding may reject a
// line with a LifecycleLogError; it must never trap. Accepted events must
// survive an export and a re-import unchanged, and the reducer must take them.
import FuzzSupport
@testable import LifecycleLog
@testable import LifecycleLogRecorder

@main
enum FuzzJSONLines {
    static func main() { runFuzzer(fuzz) }

    static let fuzz: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        guard let data else { return 0 }
        let bytes = UnsafeBufferPointer(start: data, count: size)
        var decoder = JSONLinesDecoder(path: nil)
        var configuration = RuleConfiguration()
        configuration.explore = true
        var reducer = LifecycleReducer(configuration: configuration)
        var start = 0
        var number = 0
        for i in 0...size where i == size || bytes[i] == 0x0A {
            number += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<i])
            start = i + 1
            guard let event = try? decoder.decode(line: line, number: number) else { continue }
            var text = Array(event.jsonLine.utf8)
            var again = JSONLinesDecoder(path: nil)
            let back = text.withUnsafeMutableBufferPointer { try? again.decode(line: UnsafeBufferPointer($0), number: 1) }
            if back != event { fatalError("export/import changed an event: \(event) -> \(String(describing: back))") }
            reducer.apply(seq: decoder.seq, event)
        }
        reducer.finish()
        _ = reducer.state
        return 0
    }
}

/// The entry libFuzzer's runtime links against.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzJSONLines.fuzz(data, size)
}
