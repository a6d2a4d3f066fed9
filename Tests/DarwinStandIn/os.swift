// A stand-in for Apple's os module (the unified log), so that Linux can type-check the
// `#if canImport(os)` branches of the app-facing targets (scripts/check-darwin-branches). It declares
// what those branches use, with the signatures of Apple's documentation (each `///` names its page).

/// https://developer.apple.com/documentation/os/logger
/// `struct Logger` (iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1)
public struct Logger: @unchecked Sendable {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/logger/error(_:)
    public func error(_ message: OSLogMessage) {}
    /// https://developer.apple.com/documentation/os/logger/notice(_:)
    public func notice(_ message: OSLogMessage) {}
    /// https://developer.apple.com/documentation/os/logger/debug(_:)
    public func debug(_ message: OSLogMessage) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
/// `struct OSLogMessage: ExpressibleByStringInterpolation` (only string interpolation of what the code logs).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-1ck8g
    /// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`
    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .auto) {}
}

/// https://developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy: Sendable {
    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    public static let `public` = OSLogPrivacy()
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto
    public static let auto = OSLogPrivacy()
}

/// https://developer.apple.com/documentation/os/ossignposter
/// `struct OSSignposter` (iOS 15, macOS 12, tvOS 15, watchOS 8, visionOS 1)
public struct OSSignposter: @unchecked Sendable {
    /// https://developer.apple.com/documentation/os/ossignposter/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/ossignposter/makesignpostid()
    public func makeSignpostID() -> OSSignpostID { OSSignpostID() }
    /// https://developer.apple.com/documentation/os/ossignposter/begininterval(_:id:_:)
    /// `func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) -> OSSignpostIntervalState`
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) -> OSSignpostIntervalState { OSSignpostIntervalState() }
    /// https://developer.apple.com/documentation/os/ossignposter/endinterval(_:_:)
    /// `func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState)`
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
}

/// https://developer.apple.com/documentation/os/ossignpostid
public struct OSSignpostID: Sendable {
    /// https://developer.apple.com/documentation/os/ossignpostid/exclusive
    public static let exclusive = OSSignpostID()
}

/// https://developer.apple.com/documentation/os/ossignpostintervalstate
/// `class OSSignpostIntervalState`
public final class OSSignpostIntervalState: @unchecked Sendable {}
