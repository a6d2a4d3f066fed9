/// The one check of an event's meaning (spec/trace-format.md) that every way into a trace shares:
/// the recorder's calls, the JSON Lines decoder and the trace writer. What JSON alone checks (a
/// member's type, an unknown phase name) stays in the decoder; this is what a Swift value of
/// ``LifecycleEvent/Kind`` can still get wrong.
extension LifecycleEvent.Kind {
    /// What is wrong with the event, as a sentence naming the field and what to do, or `nil`
    /// when it is valid. The messages are the JSON Lines decoder's, so a misuse reads the same
    /// whichever way it came.
    package var validationProblem: String? {
        switch self {
        case .write(_, let scope, let window, let base, let document):
            return Self.keyProblem("write", scope: scope, window: window, version: base, versionField: "base", document: document)
        case .read(_, let scope, let window, let version, let document):
            return Self.keyProblem("read", scope: scope, window: window, version: version, versionField: "version", document: document)
        case .kill(_, let signal, _):
            if let signal, signal < 0 {
                return "field \"signal\" must be a whole number from 0 to \(Int.max) (a signal number), got \(signal)"
            }
            return nil
        case .launch, .terminate, .open, .dismiss, .phase, .delegate, .save, .activity, .mark, .diagnostic, .unknown:
            return nil
        }
    }

    /// Whether ``validationProblem`` is `nil`, decided without copying any of the event's strings:
    /// the recorder asks it on every call, on the app's thread.
    @inline(__always)
    package var isValid: Bool {
        switch self {
        case .write(_, .scene, nil, _, _), .read(_, .scene, nil, _, _),
             .write(_, .document, nil, _, nil), .read(_, .document, nil, _, nil),
             .write(_, .scene, _, _, .some), .read(_, .scene, _, _, .some),
             .write(_, .app, _, _, .some), .read(_, .app, _, _, .some),
             .write(_, .shared, _, _, .some), .read(_, .shared, _, _, .some),
             .write(_, .group, _, _, .some), .read(_, .group, _, _, .some),
             .write(_, _, _, .some(.max), _), .read(_, _, _, .some(.max), _):
            return false
        case .kill(_, .some(let signal), _):
            return signal >= 0
        default:
            return true
        }
    }

    /// The largest key version a trace stores (its layout holds version + 1).
    package static let maxKeyVersion: UInt64 = .max - 1

    private static func keyProblem(_ name: String, scope: StateScope, window: WindowID?, version: UInt64?,
                                   versionField: String, document: String?) -> String? {
        if scope == .scene && window == nil {
            return "a \(name) of a scene-scoped key needs \"window\" (the window that owns the key)"
        }
        if document != nil, scope != .document {
            return "field \"document\" is only for scope \"document\", got scope \"\(scope.rawValue)\""
        }
        if scope == .document && document == nil && window == nil {
            return "a \(name) of a document-scoped key needs \"document\" (the document's file URL or id) or \"window\" (a window that presents the document)"
        }
        if let version, version > maxKeyVersion {
            return "field \"\(versionField)\" must be at most 18446744073709551614 (2^64 − 2, the largest key version a trace stores), got \(version)"
        }
        return nil
    }
}

extension LifecycleEvent {
    /// What is wrong with the event (``LifecycleEvent/Kind/validationProblem``, or a `t` that is negative or
    /// not finite), or `nil` when it is valid.
    package var validationProblem: String? {
        if !(t >= 0) || !t.isFinite { return "field \"t\" must be a non-negative number of milliseconds, got \(t)" }
        return kind.validationProblem
    }
}
