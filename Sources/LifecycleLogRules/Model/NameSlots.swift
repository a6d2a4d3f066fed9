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
    /// The indices from ``denseLimit`` on.
    private var far = SlotTable()

    /// The position stored for `index`, or -1.
    @inline(__always)
    subscript(index: Int) -> Int32 {
        if index < dense.count { return dense[index] }
        return index < Self.denseLimit || far.isEmpty ? -1 : (far[UInt64(index)] ?? -1)
    }

    /// Stores `slot` for `index` (-1: none).
    @inline(__always)
    mutating func set(_ index: Int, _ slot: Int32) {
        if index < Self.denseLimit {
            if index >= dense.count { dense.append(contentsOf: repeatElement(-1, count: index + 1 - dense.count)) }
            dense[index] = slot
        } else {
            far.set(UInt64(index), slot)
        }
    }
}
