/// A JSON value as it appeared in a trace, kept exactly enough to be written
/// back: numbers keep their literal text, objects keep their member order.
///
/// Used for the fields LifecycleLog does not interpret: the `value` a
/// `WindowGroup(for:)` window presents, and unknown fields of any event.
///
/// ```swift
/// let value: JSONValue = .object([.init("id", .number("42"))])
/// value.canonicalJSON // {"id":42}
/// ```
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON literal text (for example `"42"`, `"-1.5e3"`),
    /// so that large and fractional numbers survive a round trip unchanged.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in their original order.
    case object([JSONMember])

    /// Creates a number from an integer.
    public static func integer(_ value: Int64) -> JSONValue { .number(String(value)) }
}

/// One `"name": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member's name.
    public var name: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}

extension JSONValue {
    /// The canonical JSON text of this value: object members sorted by name
    /// (by their UTF-8 bytes), no spaces, and numbers in a canonical form
    /// (integers without a fraction or exponent, `-0` as `0`; other numbers as
    /// the shortest text that reads back as the same `Double`). Two `value`s of
    /// `open` events are equal when their canonical JSON is equal.
    public var canonicalJSON: String {
        switch self {
        case .number(let literal):
            // The commonest window value (an id) is its own canonical text: no bytes to gather.
            return JSONValue.canonicalNumber(literal)
        case .string(let s) where !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }):
            // A string with nothing to escape is itself in quotes (`JSONWriter.writeString`).
            var text = "\""
            text.reserveCapacity(s.utf8.count + 2)
            text += s
            text += "\""
            return text
        default:
            var out: [UInt8] = []
            writeCanonical(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    func writeCanonical(into out: inout [UInt8]) {
        switch self {
        case .object(let members):
            // Compared in place (no array of bytes per comparison), and not sorted at all when the
            // members already are, as a value written by `JSONEncoder` with sorted keys is.
            let precedes = { (a: JSONMember, b: JSONMember) in a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            var inOrder = true
            for i in members.indices.dropFirst() where !precedes(members[i - 1], members[i]) { inOrder = false; break }
            let sorted = inOrder ? members : members.sorted(by: precedes)
            out.append(UInt8(ascii: "{"))
            for (i, m) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(m.name, into: &out)
                out.append(UInt8(ascii: ":"))
                m.value.writeCanonical(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.writeCanonical(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .number(let literal):
            out.append(contentsOf: JSONValue.canonicalNumber(literal).utf8)
        default:
            JSONWriter.write(self, into: &out)
        }
    }

    /// The canonical text of a JSON number literal.
    static func canonicalNumber(_ literal: String) -> String {
        let isPlainInteger = !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if isPlainInteger { return literal == "-0" ? "0" : literal }
        guard let double = Double(literal), double.isFinite else { return literal }
        if double == double.rounded(), abs(double) < 9_007_199_254_740_992 {
            return String(Int64(double))
        }
        return "\(double)"
    }

    /// The value as a Swift integer, when it is a number literal that is a whole number in range.
    var integerValue: Int64? {
        guard case .number(let literal) = self else { return nil }
        if let int = Int64(literal) { return int }
        if let double = Double(literal), double == double.rounded(), abs(double) < 9.2e18 { return Int64(double) }
        return nil
    }
}
