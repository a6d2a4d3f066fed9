/// Interned strings of a trace: each distinct window id, scene id, key,
/// callback name and so on is stored once, in the `symbols` database, and
/// events refer to it by a number.
@usableFromInline package struct SymbolTable: Sendable {
    package private(set) var strings: [String] = []
    private var ids: [String: UInt32] = [:]
    /// A direct-mapped cache in front of ``ids`` for the append path, which
    /// interns two or three names per event, nearly always names it has seen.
    private var cache = InternCache()

    package var count: Int { strings.count }

    /// The id of `s`, adding it when new; `isNew` tells the caller to store it.
    @inline(__always)
    mutating func intern(_ s: String) -> (id: UInt32, isNew: Bool) {
        if let id = cache.lookUp(s) { return (id, false) }
        return internSlowly(s)
    }

    private mutating func internSlowly(_ s: String) -> (id: UInt32, isNew: Bool) {
        if let id = ids[s] {
            cache.remember(strings[Int(id)], id)
            return (id, false)
        }
        let id = UInt32(strings.count)
        strings.append(s)
        ids[s] = id
        cache.remember(s, id)
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
        guard strings.count > mark else { return }
        while strings.count > mark { ids[strings.removeLast()] = nil }
        cache = InternCache()
    }

    func string(_ id: UInt64) throws -> String {
        guard id < UInt64(strings.count) else {
            throw LifecycleLogError(.corruptTrace, "stored event names string #\(id), but the trace has only \(strings.count); the trace is damaged")
        }
        return strings[Int(id)]
    }
}

/// Remembers recently interned strings by their 16-byte representation.
///
/// A Swift `String` is two words. A small string (up to 15 UTF-8 bytes: most
/// window ids, keys and scene names) is its two words, so equal words are
/// equal strings. A larger string's words point at its storage, so equal
/// words are the same storage, hence equal strings; different words say
/// nothing, and the caller falls back to the dictionary. The cache holds the
/// table's own copy of each string it remembers, so no storage it points at
/// can be freed and reused while it is remembered.
struct InternCache {
    private static let size = 256
    private var words: [(UInt64, UInt64)]
    private var ids: [UInt32]
    private var kept: [String]

    init() {
        words = Array(repeating: (0, 0), count: Self.size)
        ids = Array(repeating: UInt32.max, count: Self.size)
        kept = Array(repeating: "", count: Self.size)
    }

    @inline(__always)
    private static func representation(_ s: String) -> (UInt64, UInt64) {
        // The one reinterpretation in the library: String's two words, read, never written.
        unsafeBitCast(s, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func slot(_ w: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: ((w.0 ^ (w.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 56)
    }

    @inline(__always)
    func lookUp(_ s: String) -> UInt32? {
        let w = Self.representation(s)
        let i = Self.slot(w)
        let id = ids[i]
        return id != UInt32.max && words[i] == w ? id : nil
    }

    mutating func remember(_ s: String, _ id: UInt32) {
        let w = Self.representation(s)
        let i = Self.slot(w)
        words[i] = w
        ids[i] = id
        kept[i] = s
    }
}
