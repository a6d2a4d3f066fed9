/// Interned strings of a trace: each distinct window id, scene id, key,
/// callback name and so on is stored once, in the `symbols` database, and
/// events refer to it by a number.
struct SymbolTable {
    private(set) var strings: [String] = []
    private var ids: [String: UInt32] = [:]

    var count: Int { strings.count }

    /// The id of `s`, adding it when new; `isNew` tells the caller to store it.
    mutating func intern(_ s: String) -> (id: UInt32, isNew: Bool) {
        if let id = ids[s] { return (id, false) }
        let id = UInt32(strings.count)
        strings.append(s)
        ids[s] = id
        return (id, true)
    }

    /// Adds a string read back from storage, which must be the next id.
    /// Readers never intern, so they keep no reverse index (`indexed: false`).
    mutating func append(_ s: String, indexed: Bool = true) {
        if indexed { ids[s] = UInt32(strings.count) }
        strings.append(s)
    }

    /// Forgets the strings added since `count` was `mark` (a write transaction was aborted).
    mutating func truncate(to mark: Int) {
        while strings.count > mark { ids[strings.removeLast()] = nil }
    }

    func string(_ id: UInt64) throws -> String {
        guard id < UInt64(strings.count) else {
            throw LifecycleLogError(.corruptTrace, "stored event names string #\(id), but the trace has only \(strings.count); the trace is damaged")
        }
        return strings[Int(id)]
    }
}
