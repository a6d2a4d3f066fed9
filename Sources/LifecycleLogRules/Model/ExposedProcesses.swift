/// `--explore`: the set-aside processes whose `kill-exposure` stretch is going on, each with its
/// unsaved `group` keys, the only way another process can end that stretch (a write by another
/// process or a save takes a key's unsaved change away; nothing another process does adds one).
///
/// Issue 28: every event used to run the rules of every set-aside process, so a trace of N
/// processes replayed with `--explore` in time growing with N² (4,000 processes: 44 s). Now an
/// event looks only at the set-aside processes holding a `group` key it changed; a stretch that
/// nothing touches goes on untouched and is carried to the event before the one that looks at
/// it next (``LifecycleReducer/exposeParked(seq:)``, ``LifecycleReducer/switchProcess(to:)``).
/// Memory: one entry per exposed set-aside process and per unsaved group key it holds.
struct ExposedProcesses: Sendable {
    /// Each exposed process's unsaved group keys when it was entered.
    private var keysOf: [Name: [Name]] = [:]
    /// For each group key, the exposed processes that hold it unsaved.
    private var holders: [Name: Set<Name>] = [:]

    var isEmpty: Bool { keysOf.isEmpty }

    func contains(_ process: Name) -> Bool { keysOf[process] != nil }

    mutating func insert(_ process: Name, holding keys: [Name]) {
        remove(process)
        keysOf[process] = keys
        for key in keys { holders[key, default: []].insert(process) }
    }

    mutating func remove(_ process: Name) {
        guard let keys = keysOf.removeValue(forKey: process) else { return }
        for key in keys {
            holders[key]?.remove(process)
            if holders[key]?.isEmpty == true { holders[key] = nil }
        }
    }

    /// The exposed processes holding any of `keys` unsaved, each once, in ascending order (the
    /// order the rules of set-aside processes always ran in); every exposed process when `keys`
    /// is `nil`.
    func holding(_ keys: [Name]?) -> [Name] {
        guard let keys else { return keysOf.keys.sorted() }
        var found = Set<Name>()
        for key in keys { if let processes = holders[key] { found.formUnion(processes) } }
        return found.sorted()
    }
}
