// libFuzzer target: any bytes as a stored event record (FORMAT.md), decoded
// against a small symbol table. Damage must be a corruptTrace error, never a
// trap; a record that decodes must encode back to the same event; and the
// replay decoder must accept exactly the records the full decoder accepts.
import FuzzSupport
@testable import LifecycleLog
@testable import LifecycleLogRules
@testable import LifecycleLogStorage
@testable import LifecycleLogRecorder

@main
enum FuzzStoredEvent {
    static func main() { runFuzzer(fuzz) }

    static let symbols: SymbolTable = {
        var table = SymbolTable()
        for s in ["library", "WindowGroup", "note", "w1", "w2", "notes", "draft", "Settings", "x", "didBecomeActive", "timer", "focus"] {
            _ = table.intern(s)
        }
        return table
    }()

    static let fuzz: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        guard let data else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: size)
        let decoded = try? EventCodec.decode(bytes, symbols: symbols)
        var extras: [ReplayExtra] = []
        let forReplay = try? EventCodec.decodeForReplay(bytes, symbols: symbols.strings, extras: &extras)
        if (decoded == nil) != (forReplay == nil) {
            fatalError("the decoders disagree: full \(decoded == nil ? "rejects" : "accepts"), replay \(forReplay == nil ? "rejects" : "accepts") \(Array(bytes))")
        }
        guard let event = decoded else { return 0 }
        var table = symbols
        var writer = ByteWriter()
        EventCodec.encode(event, into: &writer, symbols: &table)
        let again = writer.bytes.withUnsafeBytes { try? EventCodec.decode($0, symbols: table) }
        if again != event { fatalError("a decoded record does not re-encode to the same event: \(event)") }
        return 0
    }
}

/// The entry libFuzzer's runtime links against.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzStoredEvent.fuzz(data, size)
}
