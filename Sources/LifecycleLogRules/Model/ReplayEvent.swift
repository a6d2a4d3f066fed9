/// An event as the reducer sees it: its kind and the fields the rules read,
/// with every identifier a ``Name``. Stored traces decode straight into it
/// (``EventCodec/decodeForReplay(_:symbols:extras:)``), skipping what replay does
/// not read (free text, unknown fields).
///
/// It is a plain value of numbers, so handing it from the decoder to the
/// reducer copies a few words and counts no references; the rare fields that
/// are not numbers (a launch's scenes, an open's value, a save's key list)
/// travel beside it, as a ``ReplayExtra``.
///
/// Trace format version 2 data: ``process`` is an interned name on every
/// event; a `save`'s `stage` is ``saveStage`` and its `id` is ``name``; an
/// `activity` `expire` is ``activityState``; a `kill`'s reason is ``name``
/// (its signal and `by` in its ``ReplayExtra/kill``); a `write`'s or `read`'s
/// `document` is ``ReplayExtra/document``; a launch's new fields are in
/// ``ReplayLaunch``.
@usableFromInline package struct ReplayEvent: Sendable {
    /// The event kinds, as the stored format tags them.
    @usableFromInline package typealias Kind = EventTag

    /// ``window`` when the event names none.
    @inlinable package static var noWindow: Name { .max }
    /// ``process`` of an event about the main app process (no `process` field).
    @inlinable package static var mainProcess: Name { .max }
    /// ``name`` of a `save` without an `id`.
    @inlinable package static var noName: Name { .max }

    @usableFromInline package var t: Double
    @usableFromInline package var kind: Kind
    /// `phase`: the phase.
    @usableFromInline package var phase = LifecyclePhase.active
    /// `write`/`read`: the key's scope.
    @usableFromInline package var scope = StateScope.scene
    /// `activity`: whether it started or stopped.
    @usableFromInline package var activityState = LifecycleActivityState.start
    /// `open`: whether the system restored the window.
    @usableFromInline package var restored = false
    @usableFromInline package var hasVersion = false
    /// `delegate`: whether the callback is `willTerminate` (which ends the run, trace-format.md Readings 9).
    @usableFromInline package var isWillTerminate = false
    /// `save`: its `stage` (`nil`: an instantaneous save).
    @usableFromInline package var saveStage: SaveStage?
    @usableFromInline package var window: Name = ReplayEvent.noWindow
    /// `write`/`read`: the key; `open`: the scene; `activity`: its name; an unknown kind: the kind;
    /// `kill`: the reason; `save`: its `id` (``noName`` without one); `delegate`: the callback.
    @usableFromInline package var name: Name = 0
    /// `write`: the base; `read`: the version (when ``hasVersion``).
    @usableFromInline package var version: UInt64 = 0
    /// Where its ``ReplayExtra`` is in the batch that carries it (``noExtra``: it has none).
    @usableFromInline package var extraIndex: UInt32 = ReplayEvent.noExtra

    /// The process the event is about (``mainProcess``: the main app).
    @usableFromInline package var process: Name = ReplayEvent.mainProcess

    /// An event of `kind` at `t`, every other field at its default (the decoder fills them in).
    @inlinable package init(t: Double, kind: Kind) {
        self.t = t
        self.kind = kind
    }

    /// ``extraIndex`` of an event without a ``ReplayExtra``.
    @inlinable package static var noExtra: UInt32 { .max }

    /// Appends `extra` to a batch's `extras` and points ``extraIndex`` at it.
    @inlinable @inline(__always) package mutating func attach(_ extra: ReplayExtra, to extras: inout [ReplayExtra]) {
        extraIndex = UInt32(extras.count)
        extras.append(extra)
    }

    package var versionValue: UInt64? { hasVersion ? version : nil }

    /// The kind's name as written in the `event` field.
    func kindName(_ names: NameTable) -> String {
        kind == .unknown ? names[name] : kind.name
    }
}

/// The fields of the few events that carry more than numbers.
@usableFromInline package final class ReplayExtra: Sendable {
    package let launch: ReplayLaunch?
    /// An `open`'s value.
    package let value: JSONValue?
    /// A `save`'s key list.
    package let keys: [Name]?
    /// A `write`'s or `read`'s `document` (version 2; ``ReplayEvent/noName``: none).
    package let document: Name
    /// A `kill`'s signal and `by` (version 2; its reason is ``ReplayEvent/name``).
    package let kill: ReplayKill?
    /// A staged `save`'s `store` (version 2: a `begin` and an `end` without `id` pair by it), kept in
    /// the rare part (``kill``'s object) so that every extra stays as small as in version 1.
    var store: String? { kill?.store }

    package init(launch: ReplayLaunch? = nil, value: JSONValue? = nil, keys: [Name]? = nil, document: Name = ReplayEvent.noName, kill: ReplayKill? = nil,
         store: String? = nil) {
        self.launch = launch
        self.value = value
        self.keys = keys
        self.document = document
        self.kill = store.map { ReplayKill(signal: nil, by: ReplayEvent.noName, store: $0) } ?? kill
    }
}

/// The rare fields of version 2 (a `kill`'s beside its reason; a staged `save`'s `store`), a
/// reference of their own that keeps ``ReplayExtra`` as small as in version 1.
package final class ReplayKill: Sendable {
    package let signal: Int?
    /// Who recorded it (``ReplayEvent/noName``: not said).
    package let by: Name
    /// A staged `save`'s `store` (then ``signal`` is nil and ``by`` is ``ReplayEvent/noName``).
    let store: String?
    /// A `diagnostic`'s fields (then ``signal`` is nil and ``by`` is ``ReplayEvent/noName``): the
    /// event is tagged ``EventTag/unknown``, as the stored format keeps it, with this beside it.
    package let diagnostic: ReplayDiagnostic?

    package init(signal: Int?, by: Name, store: String? = nil, diagnostic: ReplayDiagnostic? = nil) {
        self.signal = signal
        self.by = by
        self.store = store
        self.diagnostic = diagnostic
    }
}

/// A `diagnostic` event's `check` (an id of spec/apple-order.md), `message` and `window`, as
/// written (the window stays a string: the event changes no window).
package struct ReplayDiagnostic: Sendable {
    package var check: String
    package var message: String
    package var window: String?

    package init(check: String, message: String, window: String?) {
        self.check = check
        self.message = message
        self.window = window
    }
}

/// The fields of a `launch` the rules read.
package struct ReplayLaunch: Sendable {
    package struct Scene: Sendable {
        package var id: Name
        var kind: SceneKind
        var hasPresentedType: Bool
        /// ``kind``, classified once.
        var known: KnownSceneKind

        package init(id: Name, kind: SceneKind, hasPresentedType: Bool) {
            self.id = id
            self.kind = kind
            self.hasPresentedType = hasPresentedType
            known = KnownSceneKind(kind)
        }
    }

    /// The launch's version-2 fields: plain numbers in one field, so that a
    /// launch is copied about as cheaply as in version 1 (no reference to count).
    package struct Session: Sendable {
        /// `reason: "prewarm"` (version 2 documents it).
        var isPrewarm = false
        /// Launched under a debugger.
        package var debugger: Bool?
        /// The macOS activation policy; `nil` is regular.
        package var activation: ActivationPolicy?
        /// The test runner that launched the app (``ReplayEvent/noName``: none).
        package var harness: Name = ReplayEvent.noName
    }

    package var platform: Platform
    package var scenes: [Scene]
    var isBackgroundLaunch: Bool
    var session = Session()
    package var build: String?
    package var os: String?

    package var isPrewarm: Bool { session.isPrewarm }
    package var debugger: Bool? { session.debugger }
    package var activation: ActivationPolicy? { session.activation }
    package var harness: Name { session.harness }

    package init(platform: Platform, scenes: [Scene], isBackgroundLaunch: Bool, session: Session = Session(),
                 build: String?, os: String?) {
        self.platform = platform
        self.scenes = scenes
        self.isBackgroundLaunch = isBackgroundLaunch
        self.session = session
        self.build = build
        self.os = os
    }
}

extension ReplayEvent {
    /// The event's fields with identifiers interned in `names`; its extra fields go to `extra`.
    init(_ event: LifecycleEvent, names: inout NameTable, extra: inout ReplayExtra?) {
        t = event.t
        kind = event.tag
        if let w = event.window { window = names.intern(w) }
        if let p = event.process { process = names.intern(p) }
        switch event.kind {
        case .launch(let l):
            extra = ReplayExtra(launch: ReplayLaunch(
                platform: l.platform,
                scenes: l.scenes.map { .init(id: names.intern($0.id), kind: $0.kind, hasPresentedType: $0.presentedType != nil) },
                isBackgroundLaunch: l.isBackgroundLaunch,
                session: .init(isPrewarm: l.isPrewarm, debugger: l.debugger, activation: l.activation,
                               harness: l.harness.map { names.intern($0) } ?? ReplayEvent.noName),
                build: l.build, os: l.os))
        case .open(_, let scene, let value, let restored):
            name = names.intern(scene)
            self.restored = restored == true
            if let value { extra = ReplayExtra(value: value) }
        case .phase(let p, _):
            phase = p
        case .write(let key, let scope, _, let v, let document), .read(let key, let scope, _, let v, let document):
            name = names.intern(key)
            self.scope = scope
            if let v { hasVersion = true; version = v }
            if let document { extra = ReplayExtra(document: names.intern(document)) }
        case .save(let keys, _, let store, let stage, let id):
            saveStage = stage
            name = id.map { names.intern($0) } ?? ReplayEvent.noName
            if stage != nil, let store {
                extra = ReplayExtra(keys: keys.map { $0.map { names.intern($0) } }, store: store)
            } else if let keys {
                extra = ReplayExtra(keys: keys.map { names.intern($0) })
            }
        case .kill(let reason, let signal, let by):
            name = names.intern(reason)
            extra = ReplayExtra(kill: ReplayKill(signal: signal, by: by.map { names.intern($0) } ?? ReplayEvent.noName))
        case .activity(let n, let state, _):
            name = names.intern(n)
            activityState = state
        case .unknown(let n):
            name = names.intern(n)
        case .diagnostic(let check, let message, let w):
            name = names.intern("diagnostic")
            window = ReplayEvent.noWindow  // as the stored reader gives it: the event changes no window
            extra = ReplayExtra(kill: ReplayKill(signal: nil, by: ReplayEvent.noName, diagnostic: ReplayDiagnostic(check: check, message: message, window: w)))
        case .delegate(let callback, _):
            name = names.intern(callback)
            isWillTerminate = callback == "willTerminate"
        case .terminate, .dismiss, .mark:
            break
        }
    }
}

extension ReplayLaunch.Session {
    /// A launch's session fields, as the decoder starts them: only whether it is a prewarm.
    package init(isPrewarm: Bool) {
        self.init(isPrewarm: isPrewarm, debugger: nil, activation: nil, harness: ReplayEvent.noName)
    }
}
