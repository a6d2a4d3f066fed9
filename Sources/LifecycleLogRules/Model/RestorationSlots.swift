/// The position in ``LifecycleModel/restorations`` of each ``RestorationIdentity`` (a scene and a
/// canonical value, or a scene and a window id), found at every `open`.
///
/// An open-addressing table on the identity's 64 bits with a multiplicative hash, where a
/// `Dictionary` hashed each identity with SipHash (about 200 instructions an open, issue 31: 6).
/// The identities are made of numbers the model hands out densely (names, value numbers), not
/// bytes a trace chooses, so a trace cannot aim them at one bucket. At most half full; memory
/// follows the number of identities.
struct RestorationSlots: Sendable {
    private var keys: [UInt64] = []
    /// Each bucket's slot; -1: an empty bucket.
    private var slots: [Int32] = []
    private var count = 0

    @inline(__always)
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot of `identity`, or `nil` when it has none yet.
    subscript(identity: RestorationIdentity) -> Int? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count - 1
        var i = Self.start(identity.bits, mask)
        while slots[i] >= 0 {
            if keys[i] == identity.bits { return Int(slots[i]) }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Gives `identity`, which has no slot yet, the slot `slot`.
    mutating func insert(_ identity: RestorationIdentity, slot: Int) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var i = Self.start(identity.bits, mask)
        while slots[i] >= 0 { i = (i + 1) & mask }
        keys[i] = identity.bits
        slots[i] = Int32(slot)
        count += 1
    }

    private mutating func grow() {
        let (oldKeys, oldSlots) = (keys, slots)
        let capacity = max(16, keys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        slots = Array(repeating: -1, count: capacity)
        let mask = capacity - 1
        for (key, slot) in zip(oldKeys, oldSlots) where slot >= 0 {
            var i = Self.start(key, mask)
            while slots[i] >= 0 { i = (i + 1) & mask }
            keys[i] = key
            slots[i] = slot
        }
    }
}
