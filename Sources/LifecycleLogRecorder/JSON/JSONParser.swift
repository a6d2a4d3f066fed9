/// A strict RFC 8259 parser over the bytes of one line, producing
/// ``JSONValue``s that keep number literals and member order.
///
/// Errors carry the byte offset where parsing stopped; ``JSONLineError``
/// turns that into a column a person can find.
package struct JSONParser {
    /// Nesting deeper than this is rejected rather than risking the stack.
    package static let maxDepth = 256

    package struct Failure: Error {
        package var offset: Int
        package var message: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses exactly one JSON value, with only white space around it.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipSpace()
        let value = try parser.parseValue(depth: 0)
        parser.skipSpace()
        if parser.index != bytes.count {
            throw Failure(offset: parser.index, message: "unexpected text after the JSON value")
        }
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func fail(_ message: String) -> Failure { Failure(offset: index, message: message) }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of line, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character, expected a value")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("invalid literal") }
        let start = word.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] { throw fail("invalid literal") }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        var members: [JSONMember] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let nameOffset = index
            let name = try parseString()
            if members.contains(where: { $0.name == name }) {
                throw Failure(offset: nameOffset, message: "duplicate member \"\(name)\"")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            index += 1
            skipSpace()
            members.append(JSONMember(name, try parseValue(depth: depth)))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of line inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of line inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']' in an array")
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, isDigit(bytes[index]) { throw fail("invalid number: leading zero") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The text of `bytes` when they are valid UTF-8 (decoding replaces
    /// invalid sequences with U+FFFD, so valid input is exactly what reads back).
    private func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let text = validUTF8(slice) else {
                    throw Failure(offset: start, message: "string is not valid UTF-8")
                }
                index += 1
                return text
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character in a string (escape it)") }
            index += 1
        }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                guard let text = scratch.withUnsafeBufferPointer({ validUTF8($0) }) else {
                    throw Failure(offset: start, message: "string is not valid UTF-8")
                }
                index += 1
                return text
            }
            if b < 0x20 { throw fail("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") { scratch.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in a \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("unpaired surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("unpaired surrogate in a \\u escape")
                }
                // `!`: surrogates were excluded above, so every value here is a scalar.
                scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw Failure(offset: index - 1, message: "invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        throw fail("unterminated string")
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw fail("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
