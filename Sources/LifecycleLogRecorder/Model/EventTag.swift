/// The event kinds as the stored format tags them (trace-format.md, FORMAT.md): one byte per kind.
/// The reducer (LifecycleLogRules) switches on it; `EventCodec` in `LifecycleLogStorage` stores it.
@usableFromInline package enum EventTag: UInt8, Sendable {
    case unknown = 0, launch, terminate, open, dismiss, phase, delegate, write, read, save, activity, mark, kill

    /// The kind of a stored tag byte (`nil` past the last kind): inlinable, as the stored
    /// codec in `LifecycleLogStorage` and `LifecycleLog` calls it once an event.
    @inlinable @inline(__always) package init?(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .launch
        case 2: self = .terminate
        case 3: self = .open
        case 4: self = .dismiss
        case 5: self = .phase
        case 6: self = .delegate
        case 7: self = .write
        case 8: self = .read
        case 9: self = .save
        case 10: self = .activity
        case 11: self = .mark
        case 12: self = .kill
        default: return nil
        }
    }

    /// The kind's name in the `event` field (an unknown kind carries its own).
    package var name: String {
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
        case .kill: return "kill"
        }
    }
}
extension LifecycleEvent {
    /// The stored format's tag for the kind: inlinable, as the reducer (LifecycleLogRules) takes it
    /// once an event replayed from memory or JSON Lines.
    @inlinable package var tag: EventTag {
        switch kind {
        case .launch: return .launch
        case .terminate: return .terminate
        case .kill: return .kill
        case .open: return .open
        case .dismiss: return .dismiss
        case .phase: return .phase
        case .delegate: return .delegate
        case .write: return .write
        case .read: return .read
        case .save: return .save
        case .activity: return .activity
        case .mark: return .mark
        case .unknown, .diagnostic: return .unknown  // stored as a kind of its own name (FORMAT.md)
        }
    }
}
