import LifecycleLogRecorder

/// The pieces of OTLP/JSON that `replay export --format otlp` writes for logs and traces alike:
/// `AnyValue`s, `KeyValue`s, the instrumentation scope, times, and each process's `Resource`.
///
/// OTLP/JSON is the protobuf JSON mapping of the OTLP messages, with lowerCamelCase keys, 64-bit
/// integers as decimal strings, enums as integers, and (unlike the plain mapping) trace and span
/// ids as lowercase hex rather than base64. Every value here is a `JSONValue` whose members are in
/// a fixed order, so that the same trace always gives the same bytes.
enum OTLPJSON {
    /// The instrumentation scope of every record and span.
    static let scope: JSONValue = .object([JSONMember("name", .string("LifecycleLog")),
                                           JSONMember("version", .string(LifecycleLogVersion.current))])

    /// A `KeyValue`.
    static func attribute(_ key: String, _ value: JSONValue) -> JSONValue {
        .object([JSONMember("key", .string(key)), JSONMember("value", value)])
    }

    /// An `AnyValue` holding a string.
    static func text(_ s: String) -> JSONValue { .object([JSONMember("stringValue", .string(s))]) }

    /// An `AnyValue` holding a 64-bit integer (a string, as the protobuf JSON mapping writes them).
    static func integer(_ i: UInt64) -> JSONValue { .object([JSONMember("intValue", .string(String(i)))]) }

    /// An `AnyValue` holding a list of 64-bit integers.
    static func integers(_ list: [UInt64]) -> JSONValue {
        .object([JSONMember("arrayValue", .object([JSONMember("values", .array(list.map(integer)))]))])
    }

    /// The `AnyValue` of a member's JSON value: strings, booleans and whole numbers as themselves,
    /// other numbers as doubles, lists and objects as their JSON text.
    static func value(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s): return .object([JSONMember("stringValue", .string(s))])
        case .bool(let b): return .object([JSONMember("boolValue", .bool(b))])
        case .number(let literal):
            if let i = Int64(literal) { return .object([JSONMember("intValue", .string(String(i)))]) }
            if let d = Double(literal), d.isFinite { return .object([JSONMember("doubleValue", .number(JSONWriter.number(d)))]) }
            return .object([JSONMember("stringValue", .string(literal))])
        case .null, .array, .object:
            var out: [UInt8] = []
            JSONWriter.write(v, into: &out)
            return .object([JSONMember("stringValue", .string(String(decoding: out, as: UTF8.self)))])
        }
    }

    /// `start` plus `t` milliseconds in nanoseconds, rounded; the largest 64-bit value for a time
    /// beyond it (a `t` of more than 584 years).
    static func unixNano(_ t: Double, start: UInt64) -> UInt64 {
        let ns = (t * 1_000_000).rounded()
        guard ns < 18_446_744_073_709_549_568 else { return .max }  // the largest double below 2^64
        let (sum, overflow) = start.addingReportingOverflow(UInt64(ns))
        return overflow ? .max : sum
    }

    /// A `fixed64` time in nanoseconds since 1970, as the JSON mapping writes it: a string.
    static func time(_ t: Double, start: UInt64) -> JSONValue { .string(String(unixNano(t, start: start))) }

    /// `value` as a trace or span id: lowercase hex, `count` bytes (twice as many digits) long,
    /// zero-padded on the left.
    static func hex(_ value: UInt64, bytes count: Int = 8) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: count * 2 - digits.count) + digits
    }

    /// A process's `Resource`, from its first `launch` (`nil`: it has none): `service.name` (the
    /// launch's `app`, else the process's name, else `app`), `service.version` (its `build`),
    /// `os.name` (the platform), `os.version` (its `os`), `device.model.identifier` (a launch member
    /// `deviceModel` a recorder added; a trace records no device model of its own), and
    /// `lifecycle_log.process`.
    static func resource(process: String, launch: LifecycleEvent.Launch?, extra: [JSONMember]) -> JSONValue {
        var attributes: [JSONValue] = [attribute("service.name", text(launch?.app ?? (process.isEmpty ? "app" : process)))]
        if let build = launch?.build { attributes.append(attribute("service.version", text(build))) }
        if let platform = launch?.platform { attributes.append(attribute("os.name", text(platform.rawValue))) }
        if let os = launch?.os { attributes.append(attribute("os.version", text(os))) }
        if let model = extra.first(where: { $0.name == "deviceModel" }), case .string(let name) = model.value {
            attributes.append(attribute("device.model.identifier", text(name)))
        }
        attributes.append(attribute("lifecycle_log.process", text(process)))
        return .object([JSONMember("attributes", .array(attributes))])
    }
}
