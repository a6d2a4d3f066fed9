/// The deterministic fold at the heart of `replay`: it takes the events of a
/// trace one at a time, rebuilds the app's state (runs, declared scenes, open
/// windows with their scene, value and phase, the app phase, key versions and
/// writers, dirty keys, running activities) and reports what the rule
/// catalogue (`rules.md`) flags.
///
/// It is a value type with no I/O: feed it events with ``apply(seq:_:)``,
/// call ``finish()`` at the end of the trace, then read ``findings``. Its
/// memory grows with open windows, keys and findings, never with the number
/// of events.
///
/// ```swift
/// var reducer = LifecycleReducer()
/// try trace.forEachEvent { seq, event in reducer.apply(seq: seq, event) }
/// reducer.finish()
/// for finding in reducer.findings { print(finding.seq, finding.rule, finding.message) }
/// ```
public struct LifecycleReducer: Sendable {
    /// Which rules run and at which severity.
    public let configuration: RuleConfiguration

    var run: RunState?
    var windows: [WindowID: OpenWindow] = [:]
    var sharedKeys: [KeyRef: KeyState] = [:]
    var sharedVersions: [KeyRef: UInt64] = [:]
    var dirty: Set<KeyRef> = []
    var restoration: [String: [String: UInt64]] = [:]
    var nextInstance = 1
    var unknownKinds: Set<String> = []
    var exposure: ExposureStretch?
    var missedSaves: [UInt64: (keys: Set<KeyRef>, related: Set<UInt64>)] = [:]
    /// Findings that a later event may still join (their seq is at or past the watermark).
    var unsettled: [Finding] = []
    /// The (rule, seq) pairs of ``unsettled``: one finding per rule and seq.
    var reportedSlots: Set<FindingSlot> = []
    /// Findings that are final, sorted by seq then rule.
    var settled: [Finding] = []
    var finished = false

    /// The number of events applied.
    public private(set) var eventCount: UInt64 = 0
    /// The number of runs (launches) seen.
    public internal(set) var runCount = 0
    /// The seq of the last event applied.
    public private(set) var lastSeq: UInt64 = 0

    /// Creates a reducer that applies `configuration`.
    public init(configuration: RuleConfiguration = RuleConfiguration()) {
        self.configuration = configuration
    }

    // Sendable: every stored property is a value type of Sendable parts.

    /// Applies one event. Events must come in seq order, each once.
    public mutating func apply(seq: UInt64, _ event: Event) {
        eventCount += 1
        lastSeq = seq
        switch event.kind {
        case .unknown(let name):
            if unknownKinds.insert(name).inserted {
                report(.unknownEvent, at: seq, related: [],
                       "Event kind \"\(name)\" is not known to this version; it is kept and exported but not interpreted. Check the spelling, or update LifecycleLog if it is a newer kind.")
            }
        case .mark:
            break
        case .launch(let launch):
            applyLaunch(seq: seq, t: event.t, launch)
        default:
            // Read fields in place: copying the run would retain every one of its tables.
            guard run != nil, run?.terminateSeq == nil else {
                let after = run?.terminateSeq
                report(.eventBeforeLaunch, at: seq, related: after.map { [$0] } ?? [],
                       after.map { "\(Self.article(event.name)) \(event.name) event comes after the run ended with terminate at seq \($0) and before the next launch: no process is running to do it. Record a launch first, or drop events after terminate." }
                        ?? "\(Self.article(event.name)) \(event.name) event comes before the first launch: no process is running yet. Start the trace with a launch event (the recorder's first call should be launch).")
                return
            }
            run?.lastSeq = seq
            applyInRun(seq: seq, event)
        }
        if configuration.explore { trackExposure(seq: seq) }
        if !unsettled.isEmpty || !missedSaves.isEmpty { settle(below: watermark(after: seq)) }
    }

    /// The lowest seq a finding may still be anchored at after event `seq`:
    /// an undecided background save, an open exposure stretch, or the next event.
    func watermark(after seq: UInt64) -> UInt64 {
        var mark = seq + 1
        if let pending = run?.pendingApp { mark = min(mark, pending.seq) }
        for window in windows.values { if let pending = window.pendingBackground { mark = min(mark, pending.seq) } }
        if let stretch = exposure { mark = min(mark, stretch.firstSeq) }
        return mark
    }

    /// Makes every finding anchored below `mark` final, in order.
    mutating func settle(below mark: UInt64) {
        for (seq, record) in missedSaves where seq < mark {
            missedSaves[seq] = nil
            let keys = record.keys.sorted()
            report(.missedBackgroundSave, at: seq, related: record.related.sorted(),
                   "Unsaved \(Self.list(keys)) went to the background here and no save followed before \(keys.count == 1 ? "it" : "they") left the background or the process ended: a suspended app can be killed without notice. Save when the scene phase becomes .inactive or .background (onChange(of: scenePhase)), not later.")
        }
        guard unsettled.contains(where: { $0.seq < mark }) else { return }
        var final: [Finding] = []
        unsettled.removeAll { finding in
            guard finding.seq < mark else { return false }
            final.append(finding)
            reportedSlots.remove(FindingSlot(seq: finding.seq, rule: finding.rule))
            return true
        }
        final.sort { a, b in a.seq != b.seq ? a.seq < b.seq : a.rule < b.rule }
        settled.append(contentsOf: final)
    }

    private mutating func applyInRun(seq: UInt64, _ event: Event) {
        switch event.kind {
        case .terminate:
            run?.terminateSeq = seq
            endRun(at: seq, nextLaunch: nil)
        case .open(let window, let scene, let value, let restored):
            applyOpen(seq: seq, t: event.t, window: window, scene: scene, value: value, restored: restored == true)
        case .dismiss(let window, _):
            guard requireOpen(window, seq: seq, event: event) else { return }
            applyDismiss(seq: seq, t: event.t, window: window)
        case .phase(let phase, let window):
            if let window {
                guard requireOpen(window, seq: seq, event: event) else { return }
            }
            applyPhase(seq: seq, t: event.t, phase, window: window)
        case .delegate(_, let window):
            if let window { _ = requireOpen(window, seq: seq, event: event) }
        case .write(let key, let scope, let window, let base):
            if let window { guard requireOpen(window, seq: seq, event: event) else { return } }
            applyWrite(seq: seq, key: key, scope: scope, window: window, base: base)
        case .read(let key, let scope, let window, let version):
            if let window { guard requireOpen(window, seq: seq, event: event) else { return } }
            applyRead(seq: seq, key: key, scope: scope, window: window, version: version)
        case .save(let keys, let window, _):
            if let window { guard requireOpen(window, seq: seq, event: event) else { return } }
            applySave(keys: keys.map(Set.init), window: window)
        case .activity(let name, let state, let window):
            if let window { guard requireOpen(window, seq: seq, event: event) else { return } }
            applyActivity(seq: seq, name: name, state: state, window: window)
        case .launch, .mark, .unknown:
            break  // handled in apply(seq:_:)
        }
    }

    /// Reports `unknown-window` unless `window` is open in this run.
    private mutating func requireOpen(_ window: WindowID, seq: UInt64, event: Event) -> Bool {
        if windows[window] != nil { return true }
        report(.unknownWindow, at: seq, related: [],
               "The \(event.name) event names window \"\(window)\", which is not open in this run, so it has no effect. Record an open for the window first, and stop sending events for a window after its dismiss.")
        return false
    }

    /// Ends the trace: state sent to the background and never saved becomes
    /// `missed-background-save`, an open exposure stretch closes, and the
    /// findings are sorted. Call it once, after the last event.
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        if run != nil, run?.terminateSeq == nil { resolvePendingSaves() }
        closeExposure()
        settle(below: .max)
    }

    /// The findings that are final and not yet taken, sorted by seq then rule.
    /// After ``finish()`` every finding is final.
    public var findings: [Finding] { settled }

    /// Hands over the findings that are final so far, sorted by seq then rule,
    /// and forgets them: call it after each ``apply(seq:_:)`` to stream a
    /// report in memory that does not grow with the trace.
    public mutating func takeSettledFindings() -> [Finding] {
        defer { settled.removeAll(keepingCapacity: true) }
        return settled
    }

    // MARK: Reporting

    mutating func report(_ rule: Rule, at seq: UInt64, related: [UInt64], _ message: String) {
        guard let severity = configuration.severity(of: rule) else { return }
        guard reportedSlots.insert(FindingSlot(seq: seq, rule: rule)).inserted else { return }  // one finding per rule and seq
        let related = Array(Set(related.filter { $0 != seq && $0 > 0 })).sorted()
        unsettled.append(Finding(rule: rule, severity: severity, seq: seq, related: related, message: message))
    }

    /// "A" or "An" before an event name.
    static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "An" : "A"
    }

    static func list(_ keys: [KeyRef]) -> String {
        let names = keys.map(\.display)
        switch names.count {
        case 0: return "state"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        }
    }

    func lastWriteSeqs(_ keys: some Sequence<KeyRef>) -> [UInt64] {
        keys.compactMap { key in
            key.scope == .scene ? windowOwning(key)?.sceneKeys[key.name]?.writers.lastWriteSeq : sharedKeys[key]?.writers.lastWriteSeq
        }
    }

    func windowOwning(_ key: KeyRef) -> OpenWindow? {
        guard let window = windows[key.windowID], window.instance == key.instance else { return nil }
        return window
    }
}

/// A rule at a seq: there is at most one finding for each.
struct FindingSlot: Hashable {
    var seq: UInt64
    var rule: Rule
}
