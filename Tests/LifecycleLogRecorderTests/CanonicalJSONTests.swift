@testable import LifecycleLogRecorder
import Testing

/// `JSONValue.canonicalJSON` takes a short way for a number and for a string with nothing to
/// escape; each must give the text the general way (`writeCanonical(into:)`) gives.
struct CanonicalJSONTests {
    private func general(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        value.writeCanonical(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func numbersAndStringsTakeTheShortWayToTheSameText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "doc-12", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", " ", "é", "🙂", "\u{7F}", "\u{2028}", "/", "0"]
        var strings = ["", "plain", "with \"quote\"", "back\\slash", "line\nbreak", String(repeating: "long", count: 40)]
        for _ in 0..<2_000 {
            strings.append((0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for s in strings {
            #expect(JSONValue.string(s).canonicalJSON == general(.string(s)), "string \(s.debugDescription)")
        }
        var literals = ["0", "-0", "12", "-7", "1.5", "1e3", "2.50", "1E-2", "9007199254740993", "123456789012345678901234567890", "-0.0"]
        for _ in 0..<500 { literals.append(String(Int64.random(in: .min ... .max, using: &generator))) }
        for _ in 0..<500 { literals.append(String(Double.random(in: -1e6...1e6, using: &generator))) }
        for literal in literals {
            #expect(JSONValue.number(literal).canonicalJSON == general(.number(literal)), "number \(literal)")
        }
    }
}
