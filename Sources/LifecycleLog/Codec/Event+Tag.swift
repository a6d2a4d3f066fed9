extension Event {
    /// The stored format's tag for the kind.
    var tag: EventCodec.Tag {
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
        case .unknown: return .unknown
        }
    }
}
