/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A warning: fails `--assert` only with `--strict`.
    case warning
    /// An error: fails `--assert`.
    case error

    /// Warnings sort before errors.
    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// A rule of the catalogue (`rules.md`), named as the spec names it, or an
/// app's own rule (``custom(_:)``, see ``LifecycleRule``).
public enum Rule: Sendable, Hashable, CaseIterable, Comparable, RawRepresentable {
    /// `missed-background-save` (error): unsaved state went to the background and no save followed there.
    case missedBackgroundSave
    /// `unsaved-dismiss` (error): a window was dismissed with unsaved scene state.
    case unsavedDismiss
    /// `unsaved-at-exit` (error): the process ended, by a quit or a kill, with unsaved state.
    case unsavedAtExit
    /// `unfinished-save` (error, rules version 2): a save `begin` never ended before an `activity`
    /// `expire` or the run's end.
    case unfinishedSave
    /// `lost-update` (error): a write overwrote another writer's change that it never saw.
    case lostUpdate
    /// `duplicate-window` (error): a second window of a single-instance scene, or for the same value.
    case duplicateWindow
    /// `undeclared-scene` (error): a window of a scene the launch did not declare, or a value for a scene declared without `for`.
    case undeclaredScene
    /// `unknown-window` (error): an event names a window that is not open, or reuses an open window's id.
    case unknownWindow
    /// `event-before-launch` (error): an event (a `kill` included) before the first launch or after the run's terminate or kill.
    case eventBeforeLaunch
    /// `unsupported-scene` (warning): a scene kind the platform does not have.
    case unsupportedScene
    /// `phase-skip` (warning): a phase change skipped inactive, which UIKit always passes through.
    case phaseSkip
    /// `unclean-exit` (warning): a recorded crash or watchdog kill, a jetsam kill while active, or a run
    /// that ended active with no recorded cause (not under a debugger, not an update).
    case uncleanExit
    /// `slow-launch` (warning): the app took longer than the watchdog limit to become active.
    case slowLaunch
    /// `launch-crash-loop` (error, rules version 3): two launches with UI in a row, within a minute,
    /// died before ever becoming active (a crash while restoring windows, say).
    case launchCrashLoop
    /// `activity-in-background` (warning): work (a timer, animation, audio) kept running in the background.
    case activityInBackground
    /// `app-phase-mismatch` (warning): the app-level phase disagrees with its windows' phases.
    case appPhaseMismatch
    /// `scene-storage-lost` (warning): a restored window read its scene storage as empty.
    case sceneStorageLost
    /// `unknown-event` (warning): an event kind this version does not know.
    case unknownEvent
    /// `kill-exposure` (warning, only with ``RuleConfiguration/explore``): what-if, a kill while inactive or in the background would lose unsaved state.
    case killExposure

    /// A rule of an app's own (a ``LifecycleRule``), by its ``LifecycleRule/id``.
    case custom(String)

    /// The catalogue's rules, in the catalogue's order (``custom(_:)`` rules are not among them).
    public static let allCases: [Rule] = RuleCatalogue.descriptions.map(\.rule)

    /// The catalogue rule whose id is `rawValue`; `nil` for any other string (an app's own rule is
    /// made with ``custom(_:)``, never found by id).
    public init?(rawValue: String) {
        guard let rule = Rule.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = rule
    }

    /// The rule's id, as `rules.md` spells it (for ``custom(_:)``, the app's id).
    public var rawValue: String {
        switch self {
        case .missedBackgroundSave: return "missed-background-save"
        case .unsavedDismiss: return "unsaved-dismiss"
        case .unsavedAtExit: return "unsaved-at-exit"
        case .unfinishedSave: return "unfinished-save"
        case .lostUpdate: return "lost-update"
        case .duplicateWindow: return "duplicate-window"
        case .undeclaredScene: return "undeclared-scene"
        case .unknownWindow: return "unknown-window"
        case .eventBeforeLaunch: return "event-before-launch"
        case .unsupportedScene: return "unsupported-scene"
        case .phaseSkip: return "phase-skip"
        case .uncleanExit: return "unclean-exit"
        case .slowLaunch: return "slow-launch"
        case .launchCrashLoop: return "launch-crash-loop"
        case .activityInBackground: return "activity-in-background"
        case .appPhaseMismatch: return "app-phase-mismatch"
        case .sceneStorageLost: return "scene-storage-lost"
        case .unknownEvent: return "unknown-event"
        case .killExposure: return "kill-exposure"
        case .custom(let id): return id
        }
    }

    /// The severity the catalogue gives the rule (an app's own rule: ``Severity/error``; its
    /// ``LifecycleRule/severity`` is what it reports at).
    public var defaultSeverity: Severity {
        RuleCatalogue.description(of: self)?.defaultSeverity ?? .error
    }

    /// Rules sort by their id, as findings at the same seq do.
    public static func < (a: Rule, b: Rule) -> Bool { a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) }

    /// A one-line summary of what the rule catches.
    public var summary: String {
        if case .custom(let id) = self { return "The app's own rule \(id)." }
        return RuleCatalogue.description(of: self)?.summary ?? ""
    }

    /// What to do about its findings, in one line (Markdown); `nil` for an app's own rule.
    public var fix: String? { RuleCatalogue.description(of: self)?.fix }

    /// How the rule describes itself (``RuleDescription``): `nil` for an app's own rule.
    public var catalogueDescription: RuleDescription? { RuleCatalogue.description(of: self) }
}

/// One thing `replay` found, anchored at the seq of the event that the
/// catalogue names for its rule.
public struct Finding: Sendable, Hashable {
    /// The rule that fired.
    public var rule: Rule
    /// Its severity, after any re-grading by ``RuleConfiguration``.
    public var severity: Severity
    /// The seq of the event the finding is anchored at.
    public var seq: UInt64
    /// Other events that explain it (the read a stale write was based on, the write that dirtied a key…), ascending.
    public var related: [UInt64]
    /// What happened and how to fix it.
    public var message: String
    /// The 1-based line, in the JSON Lines file the trace was read from, of
    /// the event at ``seq``; `nil` for a trace file (`.lmdb`), which has no
    /// lines, and for findings of a ``LifecycleReducer`` fed directly.
    public var line: Int?
    /// What the finding is about in names that are the same on every device (scenes, keys, no
    /// window ids): its identity for SARIF fingerprints. The catalogue's rules set it; `nil` for
    /// an app's own rules, whose fingerprint is made from the message. It does not take part in
    /// comparing findings (`==`), which compares what a report shows.
    public var subject: FindingSubject?

    /// Creates a finding.
    public init(rule: Rule, severity: Severity, seq: UInt64, related: [UInt64], message: String, line: Int? = nil,
                subject: FindingSubject? = nil) {
        self.rule = rule
        self.severity = severity
        self.seq = seq
        self.related = related
        self.message = message
        self.line = line
        self.subject = subject
    }

    /// Findings are equal when what a report shows of them is: rule, severity, seq, related,
    /// message and line (``subject`` is derived from the same facts).
    public static func == (a: Finding, b: Finding) -> Bool {
        a.rule == b.rule && a.severity == b.severity && a.seq == b.seq && a.related == b.related && a.message == b.message && a.line == b.line
    }

    /// Hashes what `==` compares (everything but ``subject``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(severity)
        hasher.combine(seq)
        hasher.combine(related)
        hasher.combine(message)
        hasher.combine(line)
    }
}
