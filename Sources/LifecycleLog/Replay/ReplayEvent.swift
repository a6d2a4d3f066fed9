/// An event as the reducer sees it: its kind and the fields the rules read,
/// with every identifier a ``Name``. Stored traces decode straight into it
/// (``EventCodec/decodeForReplay(_:symbols:extras:)``), skipping what replay does
/// not read (free text, unknown fields).
///
/// It is a plain value of numbers, so handing it from the decoder to the
/// reducer copies a few words and counts no references; the rare fields that
/// are not numbers (a launch's scenes, an open's value, a save's key list)
/// travel beside it, as a ``ReplayExtra``.
struct ReplayEvent: Sendable {
    /// The event kinds, as ``EventCodec`` tags them.
    enum Kind: UInt8, Sendable {
        case unknown, launch, terminate, open, dismiss, phase, delegate, write, read, save, activity, mark

        var name: String {
            switch self {
            case .unknown: return "unknown"
            case .launch: return "launch"
            case .terminate: return "terminate"
            case .open: return "open"
            case .dismiss: return "dismiss"
            case .phase: return "phase"
            case .delegate: return "delegate"
            case .write: return "write"
            case .read: return "read"
            case .save: return "save"
            case .activity: return "activity"
            case .mark: return "mark"
            }
        }
    }

    /// ``window`` when the event names none.
    static let noWindow = Name.max

    var t: Double
    var kind: Kind
    /// `phase`: 0 active, 1 inactive, 2 background; `write`/`read`: the scope,
    /// 0 scene, 1 app, 2 shared; `activity`: 0 start, 1 stop; `open`: 1 when restored.
    var code: UInt8 = 0
    var hasVersion = false
    var window: Name = ReplayEvent.noWindow
    /// `write`/`read`: the key; `open`: the scene; `activity`: its name; an unknown kind: the kind.
    var name: Name = 0
    /// `write`: the base; `read`: the version (when ``hasVersion``).
    var version: UInt64 = 0
    /// Where its ``ReplayExtra`` is in the batch that carries it (``noExtra``: it has none).
    var extraIndex: UInt32 = ReplayEvent.noExtra

    /// ``extraIndex`` of an event without a ``ReplayExtra``.
    static let noExtra = UInt32.max

    /// Appends `extra` to a batch's `extras` and points ``extraIndex`` at it.
    mutating func attach(_ extra: ReplayExtra, to extras: inout [ReplayExtra]) {
        extraIndex = UInt32(extras.count)
        extras.append(extra)
    }

    var windowName: Name? { window == Self.noWindow ? nil : window }
    var phase: ScenePhase { code == 0 ? .active : code == 1 ? .inactive : .background }
    var scope: StateScope { code == 0 ? .scene : code == 1 ? .app : .shared }
    var activityState: ActivityState { code == 0 ? .start : .stop }
    var versionValue: UInt64? { hasVersion ? version : nil }

    /// The kind's name as written in the `event` field.
    func kindName(_ names: NameTable) -> String {
        kind == .unknown ? names[name] : kind.name
    }
}

/// The fields of the few events that carry more than numbers.
final class ReplayExtra: Sendable {
    let launch: ReplayLaunch?
    /// An `open`'s value.
    let value: JSONValue?
    /// A `save`'s key list.
    let keys: [Name]?

    init(launch: ReplayLaunch? = nil, value: JSONValue? = nil, keys: [Name]? = nil) {
        self.launch = launch
        self.value = value
        self.keys = keys
    }
}

/// The fields of a `launch` the rules read.
struct ReplayLaunch: Sendable {
    struct Scene: Sendable {
        var id: Name
        var kind: SceneKind
        var hasPresentedType: Bool
    }

    var platform: Platform
    var scenes: [Scene]
    var isBackgroundLaunch: Bool
    var build: String?
    var os: String?
}

extension ReplayEvent {
    /// The event's fields with identifiers interned in `names`; its extra fields go to `extra`.
    init(_ event: Event, names: inout NameTable, extra: inout ReplayExtra?) {
        t = event.t
        func window(_ s: String?) -> Name { s.map { names.intern($0) } ?? Self.noWindow }
        func scopeCode(_ scope: StateScope) -> UInt8 { scope == .scene ? 0 : scope == .app ? 1 : 2 }
        switch event.kind {
        case .launch(let l):
            kind = .launch
            extra = ReplayExtra(launch: ReplayLaunch(
                platform: l.platform,
                scenes: l.scenes.map { .init(id: names.intern($0.id), kind: $0.kind, hasPresentedType: $0.presentedType != nil) },
                isBackgroundLaunch: l.isBackgroundLaunch, build: l.build, os: l.os))
        case .terminate: kind = .terminate
        case .open(let w, let scene, let value, let restored):
            kind = .open
            self.window = names.intern(w)
            name = names.intern(scene)
            code = restored == true ? 1 : 0
            if let value { extra = ReplayExtra(value: value) }
        case .dismiss(let w, _):
            kind = .dismiss
            self.window = names.intern(w)
        case .phase(let p, let w):
            kind = .phase
            code = p == .active ? 0 : p == .inactive ? 1 : 2
            self.window = window(w)
        case .delegate(_, let w):
            kind = .delegate
            self.window = window(w)
        case .write(let key, let scope, let w, let base):
            kind = .write
            name = names.intern(key)
            code = scopeCode(scope)
            self.window = window(w)
            if let base { hasVersion = true; version = base }
        case .read(let key, let scope, let w, let v):
            kind = .read
            name = names.intern(key)
            code = scopeCode(scope)
            self.window = window(w)
            if let v { hasVersion = true; version = v }
        case .save(let keys, let w, _):
            kind = .save
            self.window = window(w)
            if let keys { extra = ReplayExtra(keys: keys.map { names.intern($0) }) }
        case .activity(let n, let state, let w):
            kind = .activity
            name = names.intern(n)
            code = state == .start ? 0 : 1
            self.window = window(w)
        case .mark: kind = .mark
        case .unknown(let n):
            kind = .unknown
            name = names.intern(n)
        }
    }
}
