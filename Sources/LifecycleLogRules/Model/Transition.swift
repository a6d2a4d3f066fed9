/// What one event changed in the ``LifecycleModel``, told to the rules as it
/// happens. Windows are positions in ``LifecycleModel/openWindows`` (valid
/// while the transition is being observed), keys and names are ``Name``s.
/// Rules read the model for anything else, read-only. Transitions marked "app
/// rules only" are told only when an app's own rules run
/// (``RuleSet/hearsAppOnly``): no catalogue rule listens to them.
package enum Transition {
    /// An event of a kind this version does not know (`kind` names it).
    case unknownEvent(kind: Name)
    /// A `diagnostic` event: the recorder saw Apple's callbacks contradict an assumption of
    /// spec/apple-order.md. It changes nothing.
    case diagnostic(ReplayDiagnostic)
    /// An event came while no process was running (before the first launch, or after terminate).
    /// It has no other effect.
    case outsideRun(ReplayEvent)
    /// An event named a window that is not open. It has no other effect.
    case unknownWindow(ReplayEvent)
    /// An `open` gave the id of a window that is open (at `existing`). It opens nothing.
    case windowIdReused(window: Name, existing: Int)
    /// A run began: ``LifecycleModel/run`` is the new run, with no window open.
    case runStarted(ReplayLaunch)
    /// The current run ended (its end event is `RunEnd/seq`: a `terminate`, `kill`, `willTerminate`
    /// or the next `launch`); its windows, unsaved keys and open save begins are still in the model,
    /// and are dropped right after. Any background save still undecided was decided before.
    case runEnded(RunEnd)
    /// The window at `index` opened (it is the newest in ``LifecycleModel/openWindows``);
    /// `declaration` is its scene's in the run's launch, if declared.
    case windowOpened(index: Int, declaration: DeclaredScene?)
    /// The window at `index` is being dismissed: it is still open, and is removed right after.
    case windowDismissed(index: Int)
    /// A `phase` event set a window's own phase (`window` its position) or, with `window` nil,
    /// the app-level phase, from `from` to `to`. The model already holds the new phase. A
    /// window's change is made into a transition only when it skips inactive, or app rules run
    /// (``RuleSet/hearsWindowPhase(from:to:)``).
    case phaseChanged(window: Int?, from: LifecyclePhase, to: LifecyclePhase)
    /// Windows crossed into or out of the background (`crossed`, sorted by id) at one event,
    /// and at least one of them, or the aggregate app phase (`appEntered`), went into it.
    case crossedBackground(crossed: [(id: Name, intoBackground: Bool)], appEntered: Bool)
    /// The aggregate app phase became active for the first time in the run (`firstActive`), or
    /// (app rules only) changed.
    case appPhaseChanged(from: LifecyclePhase, to: LifecyclePhase, firstActive: Bool)
    /// Unsaved keys that went to the background at `pending.seq` left it (or the window or the run
    /// ended) with no save between. The model keeps them in ``RunState/missedInBackground``.
    case backgroundSaveMissed(PendingSave)
    /// A key is about to be written: the model still holds the key as it was. For a `scene`
    /// key, app rules only; for an `app` or `shared` key, only when its base is behind the
    /// current version, or app rules run (``RuleSet/hearsSharedWrite(base:current:)``).
    case keyWritten(KeyWrite)
    /// A key was read at `observed` (given, or the current version). For an `app` or `shared`
    /// key, app rules only.
    case keyRead(key: Name, scope: StateScope, window: Int?, observed: UInt64)
    /// A key with unsaved changes was saved (`window`: the scene key's window). App rules only.
    case keySaved(KeyRef, window: Int?)
    /// An activity started (`window` nil: app-wide). App rules only.
    case activityStarted(name: Name, window: Int?)
    /// An activity stopped (`window` nil: app-wide). App rules only.
    case activityStopped(name: Name, window: Int?)
    /// An `activity` `expire` came (the system's expiration handler ran), whether or not the activity
    /// was running, while save `begin`s are open (``RunState/openSaves``): made only then.
    case expired
}

/// How a run ended (rules.md, Readings 11).
package struct RunEnd {
    /// The seq of the run's end event: its `terminate`, its `kill`, its `willTerminate` (when
    /// neither followed it), or the next `launch`.
    var seq: UInt64
    /// What ended it.
    var how: How
    /// The aggregate app phase after the run's last event (Readings 12).
    var appPhase: LifecyclePhase

    /// What ended a run.
    enum How {
        /// Its `terminate` (after a `willTerminate` or not): a clean end.
        case terminated
        /// Its `willTerminate`, with no `terminate` or `kill` after it before the next launch or the
        /// end of the trace: a clean end (the process called `exit` after the callback).
        case willTerminate
        /// Its `kill`: the trace says who ended it.
        case killed(RecordedKill)
        /// The next `launch`, with nothing recorded: the process died unseen.
        case unrecorded(NextLaunch)
    }

    /// A `kill` event that ended a run.
    struct RecordedKill {
        var reason: KillReason
        /// The reason as written (for messages).
        var name: Name
        var t: Double
        var signal: Int?
        /// Who recorded it (``ReplayEvent/noName``: not said).
        var by: Name
    }

    /// A `launch` that ended the run before it.
    struct NextLaunch {
        var seq: UInt64
        var t: Double
        /// Whether the next launch has another build or OS version: an update explains the end.
        var updated: Bool
    }

    /// The next launch, when it ended the run with nothing recorded.
    var nextLaunch: NextLaunch? {
        if case .unrecorded(let next) = how { return next }
        return nil
    }

    /// The kill that ended the run, if one did.
    var kill: RecordedKill? {
        if case .killed(let kill) = how { return kill }
        return nil
    }

    /// Whether the end is clean: a `terminate` or a `willTerminate`.
    var isClean: Bool {
        switch how {
        case .terminated, .willTerminate: return true
        case .killed, .unrecorded: return false
        }
    }

    /// An end with no known cause: the next launch (not an update), or a kill of an unknown
    /// reason, in a run not under a debugger (rules.md, `unclean-exit`; Readings 13, 16).
    func isUnexplained(underDebugger: Bool) -> Bool {
        switch how {
        case .unrecorded(let next): return !next.updated && !underDebugger
        case .killed(let kill): return kill.reason == .unknown && !underDebugger
        case .terminated, .willTerminate: return false
        }
    }
}

/// Who or what ended a process, as a `kill`'s `reason` says (trace-format.md, section 5).
package enum KillReason: Equatable {
    case user, harness, debugger, watchdog, jetsam, crash
    /// Any other string (Readings 15): an end with an unknown cause.
    case unknown

    init(_ reason: String) {
        switch reason {
        case "user": self = .user
        case "harness": self = .harness
        case "debugger": self = .debugger
        case "watchdog": self = .watchdog
        case "jetsam": self = .jetsam
        case "crash": self = .crash
        default: self = .unknown
        }
    }
}

/// A write, as the model sees it before it applies it.
package struct KeyWrite {
    var key: Name
    var scope: StateScope
    /// The writing window's position, or nil for the app.
    var window: Int?
    /// The writer: a window's instance, or the run's app writer.
    var writer: Int
    /// The version the write was based on: the `base` given, or the last the writer saw.
    var base: UInt64
    /// Whether the event gave its `base`.
    var baseGiven: Bool
    /// The seq of the event that showed the writer ``base`` (when not given).
    var seenSeq: UInt64
    /// The key's version before this write.
    var current: UInt64
    /// The latest version written by another writer, with its seq (`app`/`shared` keys).
    var other: (version: UInt64, seq: UInt64)?
    /// The position of an `app`/`shared` key in ``LifecycleModel/sharedKeys``; -1 for a scene key.
    var sharedIndex: Int
}

/// A `group` key write that overwrote another process's change its writer never saw (trace-format.md
/// Readings 14): what the reducer tells the rules across processes, in names (the writers may be
/// of two processes, whose models do not share names).
struct GroupWriteLoss {
    /// The key's name.
    var key: String
    /// "Window W" or "The app".
    var writer: String
    /// "the app" or `process "P"`: the writer's process.
    var process: String
    /// The version the write was based on.
    var base: UInt64
    /// Whether the write gave its `base` (else it is the last version its writer saw).
    var baseGiven: Bool
    /// The seq of the event at which the writer last saw the key.
    var seenSeq: UInt64
    /// The key's version before this write.
    var current: UInt64
    /// The other writer's process.
    var otherProcess: String
    /// The seq of the other writer's change that is overwritten.
    var otherSeq: UInt64
}
