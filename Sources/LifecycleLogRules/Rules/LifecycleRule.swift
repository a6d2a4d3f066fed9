/// A rule of an app's own: an invariant of one app that the catalogue cannot
/// know, such as "the player window never opens twice" or "the draft is saved
/// within 2 s of going inactive".
///
/// A rule is a value that keeps its own state. Replay tells it every
/// ``LifecycleTransition`` (a window opened, a phase changed, a key was
/// written…) in trace order, with a ``LifecycleRuleContext``: the event's seq
/// and time, a read-only view of the rebuilt state, and
/// ``LifecycleRuleContext/report(at:related:_:)``. Its findings join the
/// built-in rules' in the report, named ``Rule/custom(_:)`` with the rule's
/// ``id``.
///
/// ```swift
/// struct PlayerOpensOnce: LifecycleRule {
///     let id = "player-opens-once"
///     mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext) {
///         guard case .windowOpened(_, scene: "player", _) = transition,
///               context.openWindows(ofScene: "player").count > 1 else { return }
///         context.report("A second player window opened.")
///     }
/// }
///
/// let report = try Replayer.replay("session.lmdb", customRules: [PlayerOpensOnce()])
/// ```
///
/// A rule that decides later than the event it reports at (a deadline that
/// passes, a save that never comes) says so with ``undecidedSince``, so that
/// findings still come out in seq order.
public protocol LifecycleRule: Sendable {
    /// The rule's id, as findings and reports name it (``Rule/custom(_:)``): ASCII letters,
    /// digits, `-`, `_` and `.`, not a catalogue id, and unique among the rules of one replay.
    var id: String { get }
    /// The severity of its findings; ``Severity/error`` unless the rule says otherwise.
    /// A ``RuleConfiguration`` entry for ``Rule/custom(_:)`` with this id overrides it.
    var severity: Severity { get }
    /// The lowest seq the rule may still report a finding at, while it waits for
    /// something to decide it; `nil` (the default) when it reports only at the
    /// event being applied or later.
    var undecidedSince: UInt64? { get }
    /// Hears one transition of the event ``LifecycleRuleContext/seq``.
    mutating func observe(_ transition: LifecycleTransition, in context: inout LifecycleRuleContext)
    /// Called once after the last event: decide whatever is still waiting.
    mutating func finish(in context: inout LifecycleRuleContext)
}

extension LifecycleRule {
    /// ``Severity/error``.
    public var severity: Severity { .error }
    /// `nil`: the rule reports only at the event being applied or later.
    public var undecidedSince: UInt64? { nil }
    /// Does nothing.
    public mutating func finish(in context: inout LifecycleRuleContext) {}
}

/// What changed at one event, as an app's own rule (``LifecycleRule``) hears it.
/// Every name is the trace's own string.
public enum LifecycleTransition: Sendable, Hashable {
    /// A launch started run `run` (1-based) on `platform`.
    case runStarted(run: Int, platform: Platform)
    /// Run `run` ended, as ``RunEndReason`` says: ``RunEndReason/terminated``,
    /// ``RunEndReason/willTerminate``, ``RunEndReason/recordedKill`` (its reason in
    /// ``LifecycleRuleContext/killReason``) or ``RunEndReason/killed`` (the next launch came with
    /// nothing recorded). Told at the event that makes the end known (for a willTerminate end, the
    /// next launch or the end of the trace). Its windows are still open in the context's view.
    case runEnded(run: Int, how: RunEndReason)
    /// A window opened: its id, its scene's id, and the canonical JSON of its value, if any.
    case windowOpened(window: String, scene: String, value: String?)
    /// A window is being dismissed (still open in the context's view).
    case windowDismissed(window: String, scene: String)
    /// A `phase` event set a window's own phase, or with `window` nil the app-level phase.
    case phaseChanged(window: String?, from: LifecyclePhase, to: LifecyclePhase)
    /// The aggregate app phase (the `scenePhase` an `App` observes) changed.
    case appPhaseChanged(from: LifecyclePhase, to: LifecyclePhase)
    /// A key is written by `window` (nil: the app), based on version `base` (the base the event
    /// gave, or the last the writer saw) while the key was at version `current`; it becomes
    /// `current + 1`. The context's view is still the one before the write.
    case keyWritten(key: String, scope: StateScope, window: String?, base: UInt64, current: UInt64)
    /// A key was read at `version` (given, or the current one), by `window` (nil: the app).
    case keyRead(key: String, scope: StateScope, window: String?, version: UInt64)
    /// A key with unsaved changes was saved (`window`: the window of a `scene` key).
    case keySaved(key: String, scope: StateScope, window: String?)
    /// An activity started, in `window` or app-wide (nil).
    case activityStarted(name: String, window: String?)
    /// An activity stopped, in `window` or app-wide (nil).
    case activityStopped(name: String, window: String?)
    /// An event named window `window`, which is not open; it had no effect.
    case unknownWindow(window: String)
}

/// How a run ended (rules.md, Readings 11).
public enum RunEndReason: String, Sendable, Hashable {
    /// A `terminate` event (after a `willTerminate` or not): a clean end.
    case terminated
    /// The next `launch`, with no terminate, kill or willTerminate before it: the process died
    /// with nothing recorded (a crash, a kill by the system, the user or a debugger).
    case killed
    /// A `delegate` `willTerminate` with no `terminate` or `kill` after it before the next launch
    /// or the end of the trace: a clean end at the willTerminate (trace format 2, Readings 9).
    case willTerminate
    /// A `kill` event (trace format 2): the trace says who ended the process;
    /// ``LifecycleRuleContext/killReason`` gives its `reason`.
    case recordedKill
}

/// What an app's own rule (``LifecycleRule``) sees at a transition: the event, a
/// read-only view of the state replay has rebuilt, and where to report.
///
/// It is lent to the rule for one call (`inout`) and cannot be kept: it is `~Copyable`, and reads
/// the rebuilt state in place, not from a copy. (`@unchecked Sendable`: a context lent `inout` and
/// impossible to copy cannot reach another thread while the state it reads changes.)
public struct LifecycleRuleContext: ~Copyable, @unchecked Sendable {
    /// The rebuilt state, at its own address for the length of the call that lent this context
    /// (``ModelView/with(_:_:)``): the context cannot be copied, so it cannot outlive it.
    private let view: UnsafePointer<ModelView>
    /// The rebuilt state, read in place.
    private var model: ModelView { unsafeAddress { view } }
    /// The seq of the event being applied (after the last event, in ``LifecycleRule/finish(in:)``, the last seq).
    public let seq: UInt64
    /// The event's time, `t`, in milliseconds.
    public let t: Double
    /// What the rule reported at this transition.
    var reports: [(seq: UInt64, related: [UInt64], message: String)] = []

    init(model: UnsafePointer<ModelView>, seq: UInt64, t: Double) {
        self.view = model
        self.seq = seq
        self.t = t
    }

    /// The current run (1-based), or 0 before the first launch.
    public var run: Int { model.run.number }

    /// Whether a process is running (launched and not terminated or killed).
    public var isRunning: Bool { model.isRunning }

    /// The `reason` of the `kill` that ended the current (or last) run, as written (`"crash"`,
    /// `"user"`, …); `nil` when no kill ended it.
    public var killReason: String? { model.run.endedByKill ? model.names[model.run.killReason] : nil }

    /// The aggregate app phase, or `nil` when no process runs.
    public var appPhase: LifecyclePhase? { model.isRunning ? model.appPhase : nil }

    /// The ids of the open windows of scene `scene`, in the order they opened.
    public func openWindows(ofScene scene: String) -> [String] {
        model.openWindows.filter { model.names[$0.scene] == scene }.sorted { $0.openSeq < $1.openSeq }.map { model.names[$0.id] }
    }

    /// Whether key `key` of `scope` has unsaved changes (for a `scene` key, in open window `window`).
    public func isDirty(_ key: String, scope: StateScope, window: String? = nil) -> Bool {
        if scope == .scene {
            guard let id = window, let window = model.openWindow(named: id) else { return false }
            return window.sceneKeys.keys.indices.contains { model.names[window.sceneKeys.keys[$0]] == key && window.sceneKeys.values[$0].isDirty }
        }
        return model.sharedKeys.contains { $0.ref.scope == scope && model.names[$0.ref.name] == key && $0.state.isDirty }
    }

    /// The whole rebuilt state (windows, phases, keys, activities): complete, and built on each call.
    public var state: LifecycleState { model.state(seq: seq) }

    /// Reports a finding of this rule.
    ///
    /// - Parameters:
    ///   - seq: the event the finding is anchored at; the event being applied when `nil`. An
    ///     earlier seq must be at or after the rule's ``LifecycleRule/undecidedSince``.
    ///   - related: other events that explain it. The finding keeps the first 10 of them, in
    ///     ascending order, as for every rule (spec/rules.md, Readings 24).
    ///   - message: what happened and how to fix it.
    public mutating func report(at seq: UInt64? = nil, related: [UInt64] = [], _ message: String) {
        reports.append((seq ?? self.seq, related, message))
    }
}

/// An app's own rules, with where each one is held back.
package struct CustomRules: Sendable {
    var rules: [any LifecycleRule]

    func undecided(below mark: UInt64) -> UInt64 {
        var mark = mark
        for rule in rules { if let since = rule.undecidedSince { mark = min(mark, since) } }
        return mark
    }

    /// Tells every app rule `transition`, each with a context of its own, over the model in place.
    mutating func observe(_ transition: LifecycleTransition, at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        forEachRule(at: now, &model, &findings) { rule, context in rule.observe(transition, in: &context) }
    }

    /// Tells every app rule the trace ended.
    mutating func finish(at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue) {
        forEachRule(at: now, &model, &findings) { rule, context in rule.finish(in: &context) }
    }

    /// Calls `body` with each app rule and a fresh context over the model in place, then reports
    /// what the rule reported there.
    private mutating func forEachRule(at now: EventTime, _ model: inout LifecycleModel, _ findings: inout FindingQueue,
                                      _ body: (inout any LifecycleRule, inout LifecycleRuleContext) -> Void) {
        ModelView.withAddress(&model) { address in
            for i in rules.indices {
                var context = LifecycleRuleContext(model: address, seq: now.seq, t: now.t)
                body(&rules[i], &context)
                report(context, of: rules[i], &findings)
            }
        }
    }

    private func report(_ context: borrowing LifecycleRuleContext, of rule: any LifecycleRule, _ findings: inout FindingQueue) {
        guard !context.reports.isEmpty else { return }
        let id = Rule.custom(rule.id)
        let severity = findings.configuration.severities[id] ?? rule.severity
        for r in context.reports { findings.report(id, severity: severity, at: r.seq, related: r.related, r.message) }
    }

    /// An ASCII letter, digit, `-`, `_` or `.`.
    private static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E
    }

    /// Why `rules` cannot run together: an id of the catalogue, or one used twice; `nil` when they can.
    package static func problem(with rules: [any LifecycleRule]) -> String? {
        var ids: Set<String> = []
        for rule in rules {
            if Rule(rawValue: rule.id) != nil { return "the app rule id \"\(rule.id)\" is a rule of the catalogue; give it an id of its own" }
            if rule.id.isEmpty || !rule.id.utf8.allSatisfy(isIDByte) {
                return "the app rule id \"\(rule.id)\" must be ASCII letters, digits, \"-\", \"_\" and \".\" (it is written unescaped in reports)"
            }
            if !ids.insert(rule.id).inserted { return "two app rules have the id \"\(rule.id)\"; each needs its own" }
        }
        return nil
    }
}

extension LifecycleTransition {
    /// The public form of a model transition, or `nil` for those only the catalogue's rules hear.
    init?(_ transition: Transition, _ model: borrowing ModelView) {
        let names = model.names
        func window(_ index: Int?) -> String? { index.map { names[model.openWindows[$0].id] } }
        switch transition {
        case .runStarted(let launch):
            self = .runStarted(run: model.run.number, platform: launch.platform)
        case .runEnded(let end):
            let how: RunEndReason
            switch end.how {
            case .terminated: how = .terminated
            case .willTerminate: how = .willTerminate
            case .killed: how = .recordedKill
            case .unrecorded: how = .killed
            }
            self = .runEnded(run: model.run.number, how: how)
        case .windowOpened(let index, _):
            let w = model.openWindows[index]
            self = .windowOpened(window: names[w.id], scene: names[w.scene], value: w.canonicalValue)
        case .windowDismissed(let index):
            let w = model.openWindows[index]
            self = .windowDismissed(window: names[w.id], scene: names[w.scene])
        case .phaseChanged(let index, let from, let to):
            self = .phaseChanged(window: window(index), from: from, to: to)
        case .appPhaseChanged(let from, let to, _):
            guard from != to else { return nil }
            self = .appPhaseChanged(from: from, to: to)
        case .keyWritten(let write):
            self = .keyWritten(key: names[write.key], scope: write.scope, window: window(write.window), base: write.base, current: write.current)
        case .keyRead(let key, let scope, let index, let observed):
            self = .keyRead(key: names[key], scope: scope, window: window(index), version: observed)
        case .keySaved(let key, let index):
            self = .keySaved(key: names[key.name], scope: key.scope, window: window(index))
        case .activityStarted(let name, let index):
            self = .activityStarted(name: names[name], window: window(index))
        case .activityStopped(let name, let index):
            self = .activityStopped(name: names[name], window: window(index))
        case .unknownWindow(let event):
            self = .unknownWindow(window: names[event.window])
        case .unknownEvent, .diagnostic, .outsideRun, .windowIdReused, .crossedBackground, .backgroundSaveMissed, .expired:
            return nil
        }
    }
}
