/// The one-byte codes of the stored format (FORMAT.md, "code(T)"): `0` means
/// absent, otherwise a value's position in its table, plus one. Each mapping
/// is written here once, both ways, and every encoder and decoder uses it.
/// The decoding half is inlinable: the replay decoder (LifecycleLog) reads a code once a field.

extension LifecyclePhase {
    /// The code in FORMAT.md's phase table.
    @inline(__always)
    var storedCode: UInt8 {
        switch self {
        case .active: return 1
        case .inactive: return 2
        case .background: return 3
        }
    }

    @inlinable @inline(__always)
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .active
        case 2: self = .inactive
        case 3: self = .background
        default: return nil
        }
    }
}


extension LifecycleActivityState {
    /// The code in FORMAT.md's state table.
    @inline(__always)
    var storedCode: UInt8 {
        switch self {
        case .start: return 1
        case .stop: return 2
        case .expire: return 3
        }
    }

    @inlinable @inline(__always)
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .start
        case 2: self = .stop
        case 3: self = .expire
        default: return nil
        }
    }
}

extension ActivationPolicy {
    /// The code in FORMAT.md's activation table (layout 2).
    @inline(__always)
    var storedCode: UInt8 {
        switch self {
        case .regular: return 1
        case .accessory: return 2
        case .prohibited: return 3
        }
    }

    @inlinable @inline(__always)
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .regular
        case 2: self = .accessory
        case 3: self = .prohibited
        default: return nil
        }
    }
}

extension SaveStage {
    /// The code in FORMAT.md's stage table (layout 2).
    @inline(__always)
    var storedCode: UInt8 { self == .begin ? 1 : 2 }

    @inlinable @inline(__always)
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .begin
        case 2: self = .end
        default: return nil
        }
    }
}

extension Platform {
    /// The code in FORMAT.md's platform table.
    @inline(__always)
    var storedCode: UInt8 {
        switch self {
        case .iOS: return 1
        case .iPadOS: return 2
        case .macOS: return 3
        case .macCatalyst: return 4
        case .tvOS: return 5
        case .watchOS: return 6
        case .visionOS: return 7
        }
    }

    @inlinable @inline(__always)
    package init?(storedCode: UInt8) {
        switch storedCode {
        case 1: self = .iOS
        case 2: self = .iPadOS
        case 3: self = .macOS
        case 4: self = .macCatalyst
        case 5: self = .tvOS
        case 6: self = .watchOS
        case 7: self = .visionOS
        default: return nil
        }
    }
}

extension EventCodec {
    /// Reads a required code with `decode`: `corruptTrace` when it is 0 or not in the table.
    @inlinable @inline(__always)
    package static func requiredCode<T>(_ r: inout ByteReader, _ decode: (UInt8) -> T?) throws -> T {
        let c = try r.byte()
        guard c != 0 else { throw r.corrupt("missing required code") }
        guard let value = decode(c) else { throw r.corrupt("unknown code \(c)") }
        return value
    }

    /// Reads an optional code with `decode`: `nil` when it is 0, `corruptTrace` when not in the table.
    @inlinable @inline(__always)
    package static func optionalCode<T>(_ r: inout ByteReader, _ decode: (UInt8) -> T?) throws -> T? {
        let c = try r.byte()
        guard c != 0 else { return nil }
        guard let value = decode(c) else { throw r.corrupt("unknown code \(c)") }
        return value
    }
}
