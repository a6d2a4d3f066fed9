import XCTest
@testable import LifecycleLogRules

/// `NameMap`, the small map behind a window's scene keys and activities: the
/// same answers as a dictionary through growth past the linear-scan limit,
/// removals in any order and shrinking back.
final class NameMapTests: XCTestCase {
    func testNameMapAgreesWithADictionaryThroughGrowthRemovalAndShrinking() {
        var random = SplitMix64(seed: 23)
        for round in 0..<20 {
            var map = NameMap<UInt64>()
            var model: [Name: UInt64] = [:]
            let keySpace = UInt64([8, 40, 400][round % 3])
            for step in 0..<3_000 {
                let key = Name(random.next() % keySpace)
                switch random.next() % 4 {
                case 0: map[key] = nil; model[key] = nil
                default: map[key] = UInt64(step); model[key] = UInt64(step)
                }
                XCTAssertEqual(map[key], model[key], "round \(round), step \(step)")
            }
            XCTAssertEqual(map.count, model.count)
            XCTAssertEqual(Set(map.keys), Set(model.keys))
            for (i, key) in map.keys.enumerated() {
                XCTAssertEqual(map.index(of: key), i, "round \(round): position of \(key)")
                XCTAssertEqual(map.values[i], model[key])
            }
            for key in Name(0)..<Name(keySpace) where model[key] == nil { XCTAssertNil(map.index(of: key)) }
        }
    }

    func testRemovingEveryEntryInInsertionOrderLeavesAnEmptyMapThatStillFindsNewKeys() {
        var map = NameMap<UInt64>()
        for key in Name(0)..<1_000 { map[key] = UInt64(key) }
        for key in Name(0)..<1_000 {
            map[key] = nil
            XCTAssertNil(map[key])
            if key < 999 { XCTAssertEqual(map[key + 1], UInt64(key + 1)) }
        }
        XCTAssertTrue(map.isEmpty)
        map[7] = 70
        XCTAssertEqual(map[7], 70)
    }

    func testSavedVersionsCopiedFromALargeMapAreFoundByKey() {
        var scene = NameMap<KeyState>()
        for key in Name(0)..<100 { scene[key] = KeyState(saved: UInt64(key) * 2) }
        var restoration = NameMap<UInt64>()
        restoration.setSavedVersions(of: scene, count: 100)
        for key in Name(0)..<100 { XCTAssertEqual(restoration[key], UInt64(key) * 2) }
        XCTAssertNil(restoration[100])
        let copied = scene.mapValues(\.saved)
        XCTAssertEqual(copied[99], 198)
    }

    /// A replay that reads on while a writer appends symbols gets a longer table: the names the
    /// reducer interned (document keys) keep their ids and strings (the append campaign crashed
    /// with "Index out of range" when they were dropped).
    func testALongerSymbolTableAfterInterningKeepsTheInternedNames() {
        var names = NameTable()
        names.adopt(["launch", "w1"])
        let document = names.intern("text\u{0}\"file:///a.txt\"")
        names.adopt(["launch", "w1", "w2", "w3"])
        XCTAssertEqual(names[document], "text\u{0}\"file:///a.txt\"")
        XCTAssertEqual(names[1], "w1")
        XCTAssertEqual(names.intern("text\u{0}\"file:///a.txt\""), document)
    }
}
