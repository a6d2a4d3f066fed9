// A stand-in for Apple's `os` module (the unified log's Swift API), so that
// Linux can type-check the `#if canImport(os)` branches of the app-facing
// targets (scripts/check-darwin-branches). Not a package target: the script
// compiles it, with library evolution like Apple's, into a module named os.
//
// It declares exactly what the sources use, with the signatures of Apple's
// documentation (each `///` names its page): `Logger(subsystem:category:)`,
// `error(_:)` and `notice(_:)` taking an `OSLogMessage`, and the string
// interpolation `"\(text, privacy: .public)"` through `OSLogInterpolation`.
// The interpolation takes its value as an escaping autoclosure, as Apple's
// does, so capturing what Swift 6 forbids capturing fails here too. What it
// cannot check: that `privacy:` and `align:` are compile-time constants (the
// os_log optimisation pass does that, after type-checking).
// Availability attributes are Apple's; Linux ignores them.
// The bodies do nothing: this module is only ever type-checked against.

/// https://developer.apple.com/documentation/os/logger
/// `struct Logger` (`@frozen` in the SDK). Declared Sendable: RecorderLog's
/// `private static let logger = Logger(…)` needs that in Swift 6 mode. The documentation
/// page does not list conformances, so this one is not confirmed from a citable source;
/// were an SDK's Logger not Sendable, Xcode would reject that line and this check would not.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@frozen
public struct Logger: @unchecked Sendable {
    @usableFromInline let _subsystem: String
    @usableFromInline let _category: String

    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    /// `init(subsystem: String, category: String)`
    public init(subsystem: String, category: String) {
        _subsystem = subsystem
        _category = category
    }

    /// https://developer.apple.com/documentation/os/logger/notice(_:)
    /// `func notice(_ message: OSLogMessage)`
    public func notice(_ message: OSLogMessage) {}

    /// https://developer.apple.com/documentation/os/logger/error(_:)
    /// `func error(_ message: OSLogMessage)`
    public func error(_ message: OSLogMessage) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
/// `@frozen struct OSLogMessage`: what a `Logger` method takes; only ever written as a
/// string literal or interpolation.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@frozen
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    /// https://developer.apple.com/documentation/os/oslogmessage/init(stringinterpolation:)
    public init(stringInterpolation: OSLogInterpolation) {}
    /// https://developer.apple.com/documentation/os/oslogmessage/init(stringliteral:)
    public init(stringLiteral value: String) {}
}

/// https://developer.apple.com/documentation/os/osloginterpolation
/// `@frozen struct OSLogInterpolation`
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@frozen
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}

    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-6tazr
    /// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
    /// align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`
    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {}
}

/// https://developer.apple.com/documentation/os/oslogprivacy
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@frozen
public struct OSLogPrivacy {
    @usableFromInline let _value: UInt8
    @usableFromInline init(_value: UInt8) { self._value = _value }

    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    /// `static var `public`: OSLogPrivacy { get }`
    public static var `public`: OSLogPrivacy { OSLogPrivacy(_value: 1) }
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto
    /// `static var auto: OSLogPrivacy { get }`
    public static var auto: OSLogPrivacy { OSLogPrivacy(_value: 0) }
}

/// https://developer.apple.com/documentation/os/oslogstringalignment
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@frozen
public struct OSLogStringAlignment {
    @usableFromInline let _columns: Int
    @usableFromInline init(_columns: Int) { self._columns = _columns }

    /// https://developer.apple.com/documentation/os/oslogstringalignment/none
    /// `static var none: OSLogStringAlignment { get }`
    public static var none: OSLogStringAlignment { OSLogStringAlignment(_columns: 0) }
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
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage) -> OSSignpostIntervalState {
        OSSignpostIntervalState()
    }
    /// https://developer.apple.com/documentation/os/ossignposter/endinterval(_:_:)
    /// `func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState)`
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
}

/// https://developer.apple.com/documentation/os/ossignpostid
public struct OSSignpostID {
    init() {}
    /// https://developer.apple.com/documentation/os/ossignpostid/exclusive
    public static var exclusive: OSSignpostID { OSSignpostID() }
}

/// https://developer.apple.com/documentation/os/ossignpostintervalstate
/// `class OSSignpostIntervalState`
public final class OSSignpostIntervalState {
    init() {}
}
