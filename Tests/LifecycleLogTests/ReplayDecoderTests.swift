import XCTest
@testable import LifecycleLog
@testable import LifecycleLogStorage
@testable import LifecycleLogRules

/// The replay decoder (``EventCodec/decodeForReplay(_:symbols:extras:)``)
/// against the full one: the same records accepted, the same fields read.
final class ReplayDecoderTests: XCTestCase {
    /// Encoded records of a generated trace, with the symbol table they need.
    private func records(seed: UInt64, count: Int) -> (records: [[UInt8]], events: [LifecycleEvent], symbols: SymbolTable) {
        var symbols = SymbolTable()
        var records: [[UInt8]] = []
        var events: [LifecycleEvent] = []
        TraceGenerator.generate(.init(events: count, seed: seed, windows: 4, bugRate: 200)) { event in
            var writer = ByteWriter()
            EventCodec.encode(event, into: &writer, symbols: &symbols)
            records.append(writer.bytes)
            events.append(event)
        }
        return (records, events, symbols)
    }

    func testTheReplayDecoderReadsWhatTheEventSays() throws {
        let (records, events, symbols) = records(seed: 5, count: 3000)
        for (record, event) in zip(records, events) {
            var extras: [ReplayExtra] = []
            let decoded = try record.withUnsafeBytes { try EventCodec.decodeForReplay($0, symbols: symbols.strings, extras: &extras) }
            // The reducer's own conversion of the event is the reference.
            var names = NameTable()
            names.adopt(symbols.strings)
            var extra: ReplayExtra?
            let expected = ReplayEvent(event, names: &names, extra: &extra)
            XCTAssertEqual(decoded.kind, expected.kind)
            XCTAssertEqual(decoded.t, expected.t)
            XCTAssertEqual(decoded.phase, expected.phase, "\(event)")
            XCTAssertEqual(decoded.scope, expected.scope, "\(event)")
            XCTAssertEqual(decoded.activityState, expected.activityState, "\(event)")
            XCTAssertEqual(decoded.restored, expected.restored, "\(event)")
            XCTAssertEqual(decoded.window, expected.window, "\(event)")
            XCTAssertEqual(decoded.name, expected.name, "\(event)")
            XCTAssertEqual(decoded.versionValue, expected.versionValue, "\(event)")
            let decodedExtra = decoded.extraIndex == ReplayEvent.noExtra ? nil : extras[Int(decoded.extraIndex)]
            XCTAssertEqual(decodedExtra?.value, extra?.value)
            XCTAssertEqual(decodedExtra?.keys, extra?.keys)
            XCTAssertEqual(decodedExtra?.launch?.scenes.map(\.id), extra?.launch?.scenes.map(\.id))
            XCTAssertEqual(decodedExtra?.launch?.build, extra?.launch?.build)
        }
    }

    func testBothDecodersAcceptAndRejectTheSameDamagedRecords() {
        let (records, _, symbols) = records(seed: 8, count: 2000)
        var random = SplitMix64(seed: 99)
        var rejected = 0
        for record in records {
            for _ in 0..<8 {
                var damaged = record
                switch random.next() % 3 {
                case 0: damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
                case 1: damaged.removeLast(Int(random.next() % UInt64(damaged.count)) + 1)
                default: damaged.append(UInt8(truncatingIfNeeded: random.next()))
                }
                let full = damaged.withUnsafeBytes { try? EventCodec.decode($0, symbols: symbols) }
                var extras: [ReplayExtra] = []
                let replay = damaged.withUnsafeBytes { try? EventCodec.decodeForReplay($0, symbols: symbols.strings, extras: &extras) }
                XCTAssertEqual(full == nil, replay == nil, "the decoders disagree on \(damaged)")
                if full == nil { rejected += 1 }
            }
        }
        XCTAssertGreaterThan(rejected, 1000, "the damage should make many records unreadable")
    }

    func testTheUTF8CheckAgreesWithTheStandardLibrary() {
        var random = SplitMix64(seed: 3)
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0x8F, 0x90]
        for _ in 0..<50_000 {
            let count = Int(random.next() % 6)
            let bytes = (0..<count).map { _ in random.next() % 2 == 0 ? interesting[Int(random.next() % UInt64(interesting.count))] : UInt8(truncatingIfNeeded: random.next()) }
            let expected = String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
            XCTAssertEqual(bytes.withUnsafeBytes { EventCodec.isValidUTF8($0) }, expected, "\(bytes)")
        }
    }
}
