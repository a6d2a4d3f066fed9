/// A table from 64-bit keys to slots (`Int32`), by open addressing with a multiplicative hash:
/// ``NameSlots`` keeps the names past its dense part in one, and the model finds each restoration
/// identity's slot in one (``LifecycleModel/restorationSlots``, where a `Dictionary` hashed the
/// identity with SipHash at every open: issue 31: 6).
///
/// The keys are numbers the model hands out densely (names, value numbers), not bytes a trace
/// chooses, so a trace cannot aim them at one bucket. At most half full; memory follows the
/// number of keys.
struct SlotTable: Sendable {
    private var keys: [UInt64] = []
    /// Each bucket's slot; `Int32.min`: an empty bucket (no caller stores it).
    private var slots: [Int32] = []
    private var count = 0

    /// Whether no key was ever stored.
    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot stored for `key`, or `nil`.
    subscript(key: UInt64) -> Int32? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count - 1
        var i = Self.start(key, mask)
        while slots[i] != .min {
            if keys[i] == key { return slots[i] }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Stores `slot` for `key`, replacing what was stored.
    mutating func set(_ key: UInt64, _ slot: Int32) {
        precondition(slot != .min, "Int32.min marks an empty bucket")
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var i = Self.start(key, mask)
        while slots[i] != .min && keys[i] != key { i = (i + 1) & mask }
        if slots[i] == .min {
            keys[i] = key
            count += 1
        }
        slots[i] = slot
    }

    private mutating func grow() {
        let (oldKeys, oldSlots) = (keys, slots)
        let capacity = max(16, keys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        slots = Array(repeating: .min, count: capacity)
        let mask = capacity - 1
        for (key, slot) in zip(oldKeys, oldSlots) where slot != .min {
            var i = Self.start(key, mask)
            while slots[i] != .min { i = (i + 1) & mask }
            keys[i] = key
            slots[i] = slot
        }
    }
}
