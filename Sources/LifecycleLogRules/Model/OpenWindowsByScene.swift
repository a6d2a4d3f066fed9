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

    /// For each scene (a ``Name``), its position in ``sceneLists``, or -1: found by index, not by
    /// hashing, as every open and dismiss asks (a `Dictionary` here was 7 M of the 220 M
    /// instructions of the 200 k-event benchmark's replay, issue 31: 6).
    private var sceneSlots = NameSlots()
    /// The open windows of each scene that has had one, in open order (kept, empty, when they close).
    private var sceneLists: [[Entry]] = []
    /// The open windows of each scene and value, by the restoration slot of that scene and value
    /// (``LifecycleModel/restorationSlots``: one per scene and canonical value, numbered densely),
    /// in open order; found by index, where a `Dictionary` hashed the value's text at every open
    /// and dismiss.
    private var valueLists: [[Entry]] = []

    /// `entry` opened, of `scene`, presenting the value whose slot is `valueSlot` (`nil`: none).
    mutating func opened(_ entry: Entry, scene: Name, valueSlot: Int?) {
        let slot = sceneSlots[Int(scene)]
        if slot >= 0 {
            sceneLists[Int(slot)].append(entry)
        } else {
            sceneSlots.set(Int(scene), Int32(sceneLists.count))
            sceneLists.append([entry])
        }
        if let valueSlot {
            if valueSlot >= valueLists.count { valueLists.append(contentsOf: repeatElement([], count: valueSlot + 1 - valueLists.count)) }
            valueLists[valueSlot].append(entry)
        }
    }

    /// `entry` closed (as it was opened).
    mutating func closed(_ entry: Entry, scene: Name, valueSlot: Int?) {
        let slot = Int(sceneSlots[Int(scene)])
        if slot >= 0, let i = sceneLists[slot].firstIndex(of: entry) { sceneLists[slot].remove(at: i) }
        if let valueSlot, valueSlot < valueLists.count, let i = valueLists[valueSlot].firstIndex(of: entry) { valueLists[valueSlot].remove(at: i) }
    }

    /// The earliest open window of `scene` (or of the scene and value whose slot is `valueSlot`,
    /// when given) other than `instance`.
    func earliest(of scene: Name, valueSlot: Int?, besides instance: Int) -> Entry? {
        if let valueSlot { return valueSlot < valueLists.count ? valueLists[valueSlot].first { $0.instance != instance } : nil }
        let slot = Int(sceneSlots[Int(scene)])
        return slot < 0 ? nil : sceneLists[slot].first { $0.instance != instance }
    }
}
