/// What `activity-in-background` names of one window's (or the app's) running activities: the
/// first ``FindingBound/items`` names in name order, the first as many start seqs, and how many run.
///
/// Kept beside the activities, updated as one starts and dropped (to be made again from the
/// activities) only when one that it names stops, so that a move into the background costs the
/// same whatever the number of activities left running (issue 28: looking at all of them at each
/// move made N activities and N moves quadratic).
struct ActivitySummary: Sendable {
    /// The first names in ``NameTable/precedes(_:_:)`` order.
    private(set) var first: [Name]
    /// The first start seqs, ascending.
    private(set) var earliest: [UInt64]
    /// How many activities run.
    private(set) var count: Int

    init(_ activities: NameMap<UInt64>, names: NameTable) {
        first = FindingBound.first(FindingBound.items, of: activities.keys, by: names.precedes)
        earliest = FindingBound.first(FindingBound.items, of: activities.values, by: <)
        count = activities.count
    }

    /// Activity `name` started at `seq` (it was not running): `seq` is later than every start.
    mutating func started(_ name: Name, at seq: UInt64, names: NameTable) {
        count += 1
        if earliest.count < FindingBound.items { earliest.append(seq) }
        if first.count < FindingBound.items || names.precedes(name, first[first.count - 1]) {
            let at = first.firstIndex { names.precedes(name, $0) } ?? first.endIndex
            first.insert(name, at: at)
            if first.count > FindingBound.items { first.removeLast() }
        }
    }

    /// Whether it still holds after activity `name`, started at `seq`, stopped: not when it named it.
    mutating func stopped(_ name: Name, startedAt seq: UInt64) -> Bool {
        if first.contains(name) || earliest.contains(seq) { return false }
        count -= 1
        return true
    }
}

extension NameMap where Value == UInt64 {
    /// Starts or stops activity `name` at `seq` (a start of a running one keeps its first start),
    /// keeping `summary` right, or dropping it when it cannot be kept cheaply.
    mutating func apply(_ name: Name, start: Bool, seq: UInt64, summary: inout ActivitySummary?, names: NameTable) {
        let running = self[name]
        if start {
            guard running == nil else { return }
            self[name] = seq
            summary?.started(name, at: seq, names: names)
        } else if let running {
            self[name] = nil
            if summary?.stopped(name, startedAt: running) == false { summary = nil }
        }
    }
}

extension OpenWindow {
    /// Starts or stops activity `name` of this window at `seq`, its summary kept.
    mutating func applyActivity(_ name: Name, start: Bool, seq: UInt64, names: NameTable) {
        activities.apply(name, start: start, seq: seq, summary: &activitySummary, names: names)
    }
}

extension RunState {
    /// Starts or stops app-wide activity `name` at `seq`, its summary kept.
    mutating func applyAppActivity(_ name: Name, start: Bool, seq: UInt64, names: NameTable) {
        appActivities.apply(name, start: start, seq: seq, summary: &appActivitySummary, names: names)
    }
}
