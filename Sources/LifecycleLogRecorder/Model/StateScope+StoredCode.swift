/// The scope codes of FORMAT.md's scope table: the stored format writes them, and the reducer
/// hashes a key with them. Inlinable: both are other modules (LifecycleLogStorage, LifecycleLogRules).
extension StateScope {
    /// The code in FORMAT.md's scope table.
    @inlinable @inline(__always)
    package var storedCode: UInt8 {
        switch self {
        case .scene: return 1
        case .app: return 2
        case .shared: return 3
        case .group: return 4
        case .document: return 5
        }
    }

    @inlinable @inline(__always)
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
