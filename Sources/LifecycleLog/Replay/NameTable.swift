/// A name the reducer works with (a window id, scene id, key, activity or
/// event kind), as a number into its ``NameTable``. Replaying a stored trace,
/// the numbers are the trace's own symbol ids, so no string is touched on the
/// hot path; events built in memory are interned on the way in.
typealias Name = UInt32

/// The strings behind the reducer's ``Name``s.
struct NameTable: Sendable {
    private(set) var strings: [String] = []
    /// The reverse index, built only when something is interned (events given
    /// as `Event` values); replaying a stored trace never needs it.
    private var index: [String: Name] = [:]
    private var indexed = 0

    subscript(name: Name) -> String { strings[Int(name)] }

    var count: Int { strings.count }

    /// The name of `s`, adding it when new.
    mutating func intern(_ s: String) -> Name {
        while indexed < strings.count {
            if index[strings[indexed]] == nil { index[strings[indexed]] = Name(indexed) }
            indexed += 1
        }
        if let name = index[s] { return name }
        let name = Name(strings.count)
        strings.append(s)
        index[s] = name
        indexed += 1
        return name
    }

    /// Takes a trace's symbol table as the names, so that stored symbol ids
    /// are names. `symbols` must extend what was adopted before (a trace
    /// only ever appends symbols). Every batch of one replay brings the same
    /// table (it is read once, in the replay's read transaction): adopting it
    /// again keeps the names interned since (the `document` keys the reducer
    /// makes), which replacing the table would drop while their ids stay in use.
    mutating func adopt(_ symbols: [String]) {
        guard symbols.count != adoptedCount else { return }
        strings = symbols
        adoptedCount = symbols.count
    }

    /// How many of ``strings`` came from the adopted symbol table; those after were interned.
    private var adoptedCount = 0

    /// Whether `a` sorts before `b` by their UTF-8 bytes.
    func precedes(_ a: Name, _ b: Name) -> Bool {
        self[a].utf8.lexicographicallyPrecedes(self[b].utf8)
    }
}

/// A small map from ``Name`` to `Value` kept as two arrays: a window's scene
/// keys, running activities and the like, which hold a handful of entries,
/// are found by a linear scan with no hashing and no per-entry allocation.
struct NameMap<Value> {
    private(set) var keys: [Name] = []
    private(set) var values: [Value] = []

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    @inline(__always)
    func index(of key: Name) -> Int? {
        var i = 0
        let n = keys.count
        while i < n {
            if keys[i] == key { return i }
            i += 1
        }
        return nil
    }

    subscript(key: Name) -> Value? {
        get { index(of: key).map { values[$0] } }
        set {
            if let i = index(of: key) {
                if let newValue { values[i] = newValue } else { keys.remove(at: i); values.remove(at: i) }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Empties the map, keeping its storage. An empty map (most of a window's activities) is
    /// left as it is: `removeAll(keepingCapacity:)` costs about a hundred instructions even then.
    mutating func removeAll() {
        guard !keys.isEmpty else { return }
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    /// Mutates the value at position `i` in place.
    @inline(__always)
    mutating func update<R>(at i: Int, _ body: (inout Value) -> R) -> R { body(&values[i]) }

    /// Makes this map `other`'s keys with their saved versions, reusing this map's storage where it can.
    /// Copies element by element into this map's own storage: sharing `other`'s
    /// would make the next change to either allocate a copy.
    mutating func setSavedVersions(of other: NameMap<KeyState>) where Value == UInt64 {
        if keys != other.keys {
            keys.removeAll(keepingCapacity: true)
            keys.append(contentsOf: other.keys)
        }
        if values.count == other.values.count {
            for i in values.indices { values[i] = other.values[i].saved }
        } else {
            values.removeAll(keepingCapacity: true)
            for value in other.values { values.append(value.saved) }
        }
    }

    func mapValues<T>(_ transform: (Value) -> T) -> NameMap<T> {
        var result = NameMap<T>()
        result.keys = keys
        result.values = values.map(transform)
        return result
    }
}

extension NameMap: Sendable where Value: Sendable {}
