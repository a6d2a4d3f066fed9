/// What a finding is about, in names that are the same on every device that records the same
/// app: the scenes and keys concerned and, for some rules, a word saying which case of the rule it
/// is. Window ids, seqs, run numbers, times, versions and document URLs, which differ from one
/// session or device to the next, are never part of it. It is the identity behind SARIF's
/// `partialFingerprints` (`FindingFingerprints` (in `LifecycleLog`), rules.md section 5): the same bug in a thousand
/// sessions has one subject. A finding's subject keeps the first 10 of each list (rules.md,
/// Readings 24), and then the process it is about.
///
/// ```swift
/// FindingSubject(scenes: ["main"], keys: ["scene:draft", "shared:notes"])
/// ```
public struct FindingSubject: Sendable, Hashable {
    /// The ids of the scenes concerned (of the windows the finding names), sorted, each once.
    public private(set) var scenes: [String]
    /// The keys concerned as `scope:name` (`scene:draft`, `shared:notes`, `group:pinned`,
    /// `document:body`: a document key without its document), sorted, each once.
    public private(set) var keys: [String]
    /// Other stable words, sorted, each once: the kind of an event, a kill's reason, the names of
    /// activities, the process a finding is about.
    public private(set) var details: [String]

    /// A subject; each list is sorted and its repeats dropped.
    public init(scenes: [String] = [], keys: [String] = [], details: [String] = []) {
        self.scenes = Self.canonical(scenes)
        self.keys = Self.canonical(keys)
        self.details = Self.canonical(details)
    }

    /// The same subject with `detail` added.
    func adding(detail: String) -> FindingSubject {
        FindingSubject(scenes: scenes, keys: keys, details: details + [detail])
    }

    /// The same subject with only the first ``FindingBound/items`` of each list (rules.md,
    /// Readings 24): the same subject when none is longer.
    func bounded() -> FindingSubject {
        let bound = FindingBound.items
        guard scenes.count > bound || keys.count > bound || details.count > bound else { return self }
        return FindingSubject(scenes: Array(scenes.prefix(bound)), keys: Array(keys.prefix(bound)), details: Array(details.prefix(bound)))
    }

    /// This subject and `other` together.
    func merging(_ other: FindingSubject) -> FindingSubject {
        FindingSubject(scenes: scenes + other.scenes, keys: keys + other.keys, details: details + other.details)
    }

    private static func canonical(_ items: [String]) -> [String] {
        Array(Set(items)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension LifecycleModel {
    /// The subject of a finding about `keys` and the open windows at `windows`: their scenes, the
    /// scenes of the windows that own the `scene` keys among `keys` (while open), and the keys.
    func subject(keys: some Collection<KeyRef> = [KeyRef](), windows: [Int] = [], details: [String] = []) -> FindingSubject {
        var scenes = windows.map { names[openWindows[$0].scene] }
        var keyNames: [String] = []
        for key in keys {
            switch key.scope {
            case .scene:
                // The owner, found by its id (a scan of the open windows per key made a background
                // of N windows, each with a key, quadratic); another instance with that id is not it.
                if let w = windowIndex(key.window), openWindows[w].instance == key.instance { scenes.append(names[openWindows[w].scene]) }
                keyNames.append("scene:\(names[key.name])")
            case .document:
                keyNames.append("document:\(Self.documentKey(names[key.name]).name)")
            default:
                keyNames.append("\(key.scope.rawValue):\(names[key.name])")
            }
        }
        // The queue keeps the first of each list (FindingSubject.bounded()): choosing them here
        // spares sorting thousands of names for a finding about thousands of keys.
        let bound = FindingBound.items
        let precedes: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return FindingSubject(scenes: FindingBound.first(bound, of: scenes, by: precedes), keys: FindingBound.first(bound, of: keyNames, by: precedes),
                              details: FindingBound.first(bound, of: details, by: precedes))
    }
}
