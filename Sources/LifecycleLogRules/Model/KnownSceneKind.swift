/// The scene kinds the rules tell apart, found once for each scene a `launch` declares.
///
/// Each of ``SceneKind``'s named kinds is a global of the recorder module: comparing a kind
/// with one costs a lazy-global access and a string comparison, and the rules would do several
/// at every launch and every `open`. The decoder classifies each declared scene's kind once;
/// the rules compare these.
package enum KnownSceneKind: Sendable {
    case windowGroup, window, documentGroup, settings, menuBarExtra, immersiveSpace
    /// A kind this version does not know (kept by name in ``SceneKind``).
    case other

    init(_ kind: SceneKind) {
        switch kind {
        case .windowGroup: self = .windowGroup
        case .window: self = .window
        case .documentGroup: self = .documentGroup
        case .settings: self = .settings
        case .menuBarExtra: self = .menuBarExtra
        case .immersiveSpace: self = .immersiveSpace
        default: self = .other
        }
    }
}
