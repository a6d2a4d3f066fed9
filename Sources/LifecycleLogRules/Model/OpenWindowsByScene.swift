/// The open windows of each scene, and of each scene and presented value, in the order they
/// opened: what `duplicate-window` asks at each open (the earliest other open window of the same
/// single-instance scene, or of the same scene and value), answered without a scan of every open
/// window (issue 28: that scan made N windows open at once quadratic). Memory follows the open
/// windows.
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

    private var byScene: [Name: [Entry]] = [:]
    private var byValue: [SceneValue: [Entry]] = [:]

    mutating func opened(_ entry: Entry, scene: Name, value: String?) {
        byScene[scene, default: []].append(entry)
        if let value { byValue[SceneValue(scene: scene, value: value), default: []].append(entry) }
    }

    mutating func closed(_ entry: Entry, scene: Name, value: String?) {
        Self.remove(entry, from: &byScene, at: scene)
        if let value { Self.remove(entry, from: &byValue, at: SceneValue(scene: scene, value: value)) }
    }

    /// The earliest open window of `scene` (and of `value`, when given) other than `instance`.
    func earliest(of scene: Name, value: String?, besides instance: Int) -> Entry? {
        let entries = value.map { byValue[SceneValue(scene: scene, value: $0)] } ?? byScene[scene]
        return entries?.first { $0.instance != instance }
    }

    private static func remove<Key: Hashable>(_ entry: Entry, from table: inout [Key: [Entry]], at key: Key) {
        guard let i = table[key]?.firstIndex(of: entry) else { return }
        table[key]!.remove(at: i)  // `!`: found above
        if table[key]!.isEmpty { table[key] = nil }  // `!`: as above
    }
}
