/// An event as the reducer sees it: its kind and the fields the rules read,
/// with every identifier a ``Name``. Stored traces decode straight into it
/// (``EventCodec/decodeForReplay(_:symbols:)``), skipping what replay does
/// not read (free text, unknown fields), so that replay allocates nothing for
/// most events.
struct ReplayEvent {
    var t: Double
    var kind: Kind

    enum Kind {
        case launch(ReplayLaunch)
        case terminate
        case open(window: Name, scene: Name, value: JSONValue?, restored: Bool)
        case dismiss(window: Name)
        case phase(ScenePhase, window: Name?)
        case delegate(window: Name?)
        case write(key: Name, scope: StateScope, window: Name?, base: UInt64?)
        case read(key: Name, scope: StateScope, window: Name?, version: UInt64?)
        case save(keys: [Name]?, window: Name?)
        case activity(name: Name, state: ActivityState, window: Name?)
        case mark
        case unknown(name: Name)
    }

    /// The kind's name as written in the `event` field.
    func kindName(_ names: NameTable) -> String {
        switch kind {
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
        case .unknown(let name): return names[name]
        }
    }
}

/// The fields of a `launch` the rules read.
struct ReplayLaunch {
    struct Scene {
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
    /// The event's fields with identifiers interned in `names`.
    init(_ event: Event, names: inout NameTable) {
        t = event.t
        func name(_ s: String?) -> Name? { s.map { names.intern($0) } }
        switch event.kind {
        case .launch(let l):
            kind = .launch(ReplayLaunch(
                platform: l.platform,
                scenes: l.scenes.map { .init(id: names.intern($0.id), kind: $0.kind, hasPresentedType: $0.presentedType != nil) },
                isBackgroundLaunch: l.isBackgroundLaunch, build: l.build, os: l.os))
        case .terminate: kind = .terminate
        case .open(let w, let scene, let value, let restored):
            kind = .open(window: names.intern(w), scene: names.intern(scene), value: value, restored: restored == true)
        case .dismiss(let w, _): kind = .dismiss(window: names.intern(w))
        case .phase(let p, let w): kind = .phase(p, window: name(w))
        case .delegate(_, let w): kind = .delegate(window: name(w))
        case .write(let key, let scope, let w, let base): kind = .write(key: names.intern(key), scope: scope, window: name(w), base: base)
        case .read(let key, let scope, let w, let v): kind = .read(key: names.intern(key), scope: scope, window: name(w), version: v)
        case .save(let keys, let w, _): kind = .save(keys: keys.map { $0.map { names.intern($0) } }, window: name(w))
        case .activity(let n, let state, let w): kind = .activity(name: names.intern(n), state: state, window: name(w))
        case .mark: kind = .mark
        case .unknown(let n): kind = .unknown(name: names.intern(n))
        }
    }
}
