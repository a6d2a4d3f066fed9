/// A name the reducer works with (a window id, scene id, key, activity or
/// event kind), as a number into its ``NameTable``. Replaying a stored trace,
/// the numbers are the trace's own symbol ids, so no string is touched on the
/// hot path; events built in memory are interned on the way in.
@usableFromInline package typealias Name = UInt32

/// The strings behind the reducer's ``Name``s.
package struct NameTable: Sendable {
    private(set) var strings: [String] = []
    /// The reverse index, built only when something is interned (events given
    /// as `LifecycleEvent` values); replaying a stored trace never needs it.
    private var index: [String: Name] = [:]
    private var indexed = 0

    package subscript(name: Name) -> String { strings[Int(name)] }

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
    ///
    /// Once names were interned, a longer table (a writer appended symbols while the replay read)
    /// is not taken: the interned names hold the ids its new symbols would have, and a replay
    /// reads no event past the end the trace had when it began (``Trace/decodeBatches``), so none
    /// refers to them.
    package mutating func adopt(_ symbols: [String]) {
        guard symbols.count != adoptedCount, strings.count == adoptedCount else { return }
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

/// A map from ``Name`` to `Value` kept as two arrays: a window's scene keys, running activities
/// and the like. Most hold a handful of entries and are found by a linear scan with no hashing and
/// no per-entry allocation; a map that grows past ``NameMap/scanLimit`` entries also keeps a hash
/// index of positions, so that lookups stay constant-time however many keys a window writes
/// (replay time stays linear in a window's keys and activities, issue 23).
///
/// Entries keep their insertion order until one is removed: a removal moves the last entry into
/// the gap (constant time). Every reader that prints entries sorts them first.
package struct NameMap<Value> {
    private(set) var keys: [Name] = []
    private(set) var values: [Value] = []
    /// Each key's position, kept only once the map has more than ``scanLimit`` entries.
    private var positions: [Name: Int]?

    /// The most entries found by a linear scan; past it the map keeps ``positions``.
    static var scanLimit: Int { 16 }

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    @inline(__always)
    func index(of key: Name) -> Int? {
        if let positions { return positions[key] }
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
                if let newValue { values[i] = newValue } else { remove(at: i) }
            } else if let newValue {
                if keys.capacity == 0 { reserveFirst() }
                keys.append(key)
                values.append(newValue)
                if positions != nil {
                    positions![key] = keys.count - 1
                } else if keys.count > Self.scanLimit {
                    buildPositions()
                }
            }
        }
    }

    /// Room for a few entries at the first: growing one entry at a time (1, 2, 4) cost a
    /// reallocation of both arrays at each of a window's first keys.
    @inline(never)
    private mutating func reserveFirst() {
        keys.reserveCapacity(4)
        values.reserveCapacity(4)
    }

    /// Removes the entry at `i` by moving the last entry into its place.
    private mutating func remove(at i: Int) {
        let last = keys.count - 1
        positions?[keys[i]] = nil
        if i != last {
            keys[i] = keys[last]
            values.swapAt(i, last)
            positions?[keys[i]] = i
        }
        keys.removeLast()
        values.removeLast()
        if positions != nil, keys.count <= Self.scanLimit / 2 { positions = nil }
    }

    @inline(never)
    private mutating func buildPositions() {
        var positions = [Name: Int](minimumCapacity: keys.count * 2)
        for (i, key) in keys.enumerated() { positions[key] = i }
        self.positions = positions
    }

    /// Empties the map, keeping its storage. An empty map (most of a window's activities) is
    /// left as it is, and a small one loses its entries one at a time
    /// (`Array.removeAllKeepingStorage()`): `removeAll(keepingCapacity:)` costs about a hundred
    /// instructions for each of the two lists, even when empty.
    mutating func removeAll() {
        guard !keys.isEmpty else { return }
        keys.removeAllKeepingStorage()
        values.removeAllKeepingStorage()
        positions = nil
    }

    /// Mutates the value at position `i` in place.
    @inline(__always)
    mutating func update<R>(at i: Int, _ body: (inout Value) -> R) -> R { body(&values[i]) }

    /// Makes this map the first `count` of `other`'s keys with their saved versions, reusing this
    /// map's storage. Copies element by element into this map's own storage: sharing `other`'s
    /// would make the next change to either allocate a copy.
    /// Usually this map already holds a prefix of those keys (the window restored from it, or
    /// saved into it before): then only values are written and new keys appended.
    mutating func setSavedVersions(of other: NameMap<KeyState>, count: Int) where Value == UInt64 {
        var same = keys.count <= count
        if same {
            for i in keys.indices where keys[i] != other.keys[i] { same = false; break }
        }
        if !same {  // never empty here: an empty map holds a prefix of any keys
            keys.removeAllKeepingStorage()
            values.removeAllKeepingStorage()
            positions = nil
        }
        for i in values.indices { values[i] = other.values[i].saved }
        // The rest are appended as they are: `other`'s keys are distinct, so none is looked up.
        let start = keys.count
        guard start < count else { return }
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        keys.append(contentsOf: other.keys[start..<count])
        for i in start..<count { values.append(other.values[i].saved) }
        if positions != nil {
            for i in start..<count { positions![keys[i]] = i }
        } else if count > Self.scanLimit {
            buildPositions()
        }
    }

    func mapValues<T>(_ transform: (Value) -> T) -> NameMap<T> {
        var result = NameMap<T>()
        result.keys = keys
        result.values = values.map(transform)
        result.positions = positions
        return result
    }
}

extension NameMap: Sendable where Value: Sendable {}
