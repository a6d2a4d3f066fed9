import LifecycleLogRecorder

/// The scope codes of FORMAT.md's scope table: the stored format writes them, and the reducer
/// hashes a key with them.
extension StateScope {
    /// The code in FORMAT.md's scope table. (Inlinable: the replay decoder, in another module,
    /// reads one at every `write` and `read`.)
    @inlinable
    package var storedCode: UInt8 {
        switch self {
        case .scene: return 1
        case .app: return 2
        case .shared: return 3
        case .group: return 4
        case .document: return 5
        }
    }

    @inlinable
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .scene
        case 2: self = .app
        case 3: self = .shared
        case 4: self = .group
        case 5: self = .document
        default: return nil
        }
    }
}
