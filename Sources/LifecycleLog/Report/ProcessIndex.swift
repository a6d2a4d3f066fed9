import LifecycleLogRules

/// The processes of a trace numbered 0, 1, … in the order their first events come, so that
/// per-process counts can live in arrays: what `replay stats` (``TraceStatistics``) and
/// `replay summary` (``TraceFindingTally``) share.
///
/// A process is found by name (a JSON Lines trace's `process`; `""` is the main app) or by a trace
/// file's decoded event (``ReplayEvent/process``: a symbol id, or ``ReplayEvent/mainProcess``),
/// whose name is looked up once per symbol. `"process":""` is the main app, as the reducer takes
/// it. Memory: one entry per process, and one per symbol id up to the highest that names a process.
struct ProcessIndex {
    /// The processes' names, by index (`""`: the main app).
    private(set) var names: [String] = []
    /// Each process's index, by name.
    private var byName: [String: Int] = [:]
    /// Each symbol id's process index (`-1`: not looked up yet).
    private var bySymbol: [Int] = []
    /// The main app's index (`-1`: no event of it yet).
    private var mainApp = -1

    /// The index of the process `name`, numbered now (`isNew`) if it is the first of its events.
    mutating func index(of name: String) -> (index: Int, isNew: Bool) {
        if let known = byName[name] { return (known, false) }
        names.append(name)
        byName[name] = names.count - 1
        return (names.count - 1, true)
    }

    /// The index of the process of a trace file's event (`process` as decoded, `symbols` the
    /// batch's names), numbered now (`isNew`) if it is the first of its events.
    @inline(__always)
    mutating func index(of process: Name, symbols: [String]) -> (index: Int, isNew: Bool) {
        if process == ReplayEvent.mainProcess {
            if mainApp >= 0 { return (mainApp, false) }
            let found = index(of: "")
            mainApp = found.index
            return found
        }
        let id = Int(process)
        if id < bySymbol.count, bySymbol[id] >= 0 { return (bySymbol[id], false) }
        if id >= bySymbol.count { bySymbol += repeatElement(-1, count: id + 1 - bySymbol.count) }
        let found = index(of: symbols[id])
        bySymbol[id] = found.index
        return found
    }

    /// The index of the process `name`, or `nil` when it has had no event.
    func existingIndex(of name: String) -> Int? { byName[name] }
}
