/// Writes ``JSONValue``s as compact JSON text, byte for byte the same on
/// every run: members in their stored order, numbers as their literal text,
/// strings as UTF-8 with only the escapes JSON requires.
package enum JSONWriter {
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            writeObject(members, into: &out)
        }
    }

    package static func writeObject(_ members: [JSONMember], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, m) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeString(m.name, into: &out)
            out.append(UInt8(ascii: ":"))
            write(m.value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(0x5C); out.append(b)
            case UInt8(ascii: "\\"): out.append(0x5C); out.append(b)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Formats a `Double` as JSON: whole numbers without a fraction, others
    /// as the shortest text that reads back as the same value.
    package static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
        return "\(d)"
    }
}
