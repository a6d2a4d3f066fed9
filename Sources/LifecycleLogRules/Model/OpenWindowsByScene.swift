/// The open windows of each scene, and of each scene and presented value, in the order they
/// opened: what `duplicate-window` asks at each open (the earliest other open window of the same
/// single-instance scene, or of the same scene and value), answered without a scan of every open
/// window (issue 28: that scan made N windows open at once quadratic). Memory follows the open
/// windows and the scenes.
struct OpenWindowsByScene: Sendable {
    /// An open window: its instance (unique per open) and its id (where the model finds it).
    struct Entry: Sendable, Equatable {
        var instance: Int
        var id: Name
    }

    private struct SceneValue: Hashable, Sendable {
        var scene: Name
        var value: String
    }

    /// For each scene (a ``Name``), its position in ``sceneLists``, or -1: found by index, not by
    /// hashing, as every open and dismiss asks (a `Dictionary` here was 7 M of the 220 M
    /// instructions of the 200 k-event benchmark's replay, issue 31: 6).
    private var sceneSlots = NameSlots()
    /// The open windows of each scene that has had one, in open order (kept, empty, when they close).
    private var sceneLists: [[Entry]] = []
    private var byValue: [SceneValue: [Entry]] = [:]

    mutating func opened(_ entry: Entry, scene: Name, value: String?) {
        let slot = sceneSlots[Int(scene)]
        if slot >= 0 {
            sceneLists[Int(slot)].append(entry)
        } else {
            sceneSlots.set(Int(scene), Int32(sceneLists.count))
            sceneLists.append([entry])
        }
        if let value { byValue[SceneValue(scene: scene, value: value), default: []].append(entry) }
    }

    mutating func closed(_ entry: Entry, scene: Name, value: String?) {
        let slot = Int(sceneSlots[Int(scene)])
        if slot >= 0, let i = sceneLists[slot].firstIndex(of: entry) { sceneLists[slot].remove(at: i) }
        if let value { Self.remove(entry, from: &byValue, at: SceneValue(scene: scene, value: value)) }
    }

    /// The earliest open window of `scene` (and of `value`, when given) other than `instance`.
    func earliest(of scene: Name, value: String?, besides instance: Int) -> Entry? {
        if let value { return byValue[SceneValue(scene: scene, value: value)]?.first { $0.instance != instance } }
        let slot = Int(sceneSlots[Int(scene)])
        return slot < 0 ? nil : sceneLists[slot].first { $0.instance != instance }
    }

    private static func remove<Key: Hashable>(_ entry: Entry, from table: inout [Key: [Entry]], at key: Key) {
        guard let i = table[key]?.firstIndex(of: entry) else { return }
        table[key]!.remove(at: i)  // `!`: found above
        if table[key]!.isEmpty { table[key] = nil }  // `!`: as above
    }
}
