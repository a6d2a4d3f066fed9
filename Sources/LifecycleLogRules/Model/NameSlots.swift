/// A position for each of a process's names (its windows' ids, its keys): `-1` for none.
///
/// A dense array for small indices (one load on the replay path, as before), and an
/// open-addressing table for the rest. Names are numbered for the whole trace, so a process
/// whose names came late (the 8,000th process of a trace) would otherwise hold an array as long
/// as every name before its own: issue 28 measured 8,000 processes alive at once at 1.03 GB.
/// Here each process holds at most ``denseLimit`` dense entries plus room for the names it uses.
struct NameSlots: Sendable {
    /// Indices below this live in the dense array (16 KiB at most).
    static let denseLimit = 4096

    private var dense: [Int32] = []
    /// The table for indices from ``denseLimit`` on: `keys` holds index + 1 (0: empty), a power
    /// of two long, at most half full.
    private var keys: [UInt64] = []
    private var values: [Int32] = []
    private var count = 0

    /// The position stored for `index`, or -1.
    @inline(__always)
    subscript(index: Int) -> Int32 {
        if index < dense.count { return dense[index] }
        return index < Self.denseLimit || keys.isEmpty ? -1 : far(index)
    }

    /// Stores `slot` for `index` (-1: none).
    @inline(__always)
    mutating func set(_ index: Int, _ slot: Int32) {
        if index < Self.denseLimit {
            if index >= dense.count { dense.append(contentsOf: repeatElement(-1, count: index + 1 - dense.count)) }
            dense[index] = slot
        } else {
            setFar(index, slot)
        }
    }

    @inline(__always)
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    @inline(never)
    private func far(_ index: Int) -> Int32 {
        let key = UInt64(index) + 1, mask = keys.count - 1
        var i = Self.start(key, mask)
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { return -1 }
            i = (i + 1) & mask
        }
    }

    @inline(never)
    private mutating func setFar(_ index: Int, _ slot: Int32) {
        if (count + 1) * 2 > keys.count { grow() }
        let key = UInt64(index) + 1, mask = keys.count - 1
        var i = Self.start(key, mask)
        while keys[i] != 0 && keys[i] != key { i = (i + 1) & mask }
        if keys[i] == 0 {
            keys[i] = key
            count += 1
        }
        values[i] = slot
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let capacity = max(16, keys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: -1, count: capacity)
        let mask = capacity - 1
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            var i = Self.start(key, mask)
            while keys[i] != 0 { i = (i + 1) & mask }
            keys[i] = key
            values[i] = value
        }
    }
}
