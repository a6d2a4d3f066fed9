/// Text from a trace (window ids, keys, scene names, callback names, file
/// names) made safe to print: a trace is input, and a window id such as
/// `"\u001b]0;pwned\u0007"` must not reach a terminal, a CI log or an XML
/// file as the raw escape sequence it is.
package enum VisibleText {
    /// Whether `scalar` is escaped: the C0 controls (tab and newline too, so
    /// that one finding stays one line), DEL, the C1 controls (some terminals
    /// read U+009B as CSI), the line and paragraph separators, and the
    /// non-characters U+FFFE and U+FFFF (not allowed in XML), and the
    /// invisible characters that make text read other than it is: the
    /// zero-width ones (U+200B–U+200D, U+2060–U+2064, U+FEFF) and the
    /// direction marks, embeddings, overrides and isolates (U+061C,
    /// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
    @inline(__always)
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v <= 0x9F) { return true }
        guard v >= 0x61C else { return false }
        return v == 0x61C || (v >= 0x200B && v <= 0x200F) || (v >= 0x2028 && v <= 0x202E) || (v >= 0x2060 && v <= 0x2064)
            || (v >= 0x2066 && v <= 0x2069) || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF
    }

    /// `text` with every character that ``needsEscape(_:)`` written as a
    /// visible Swift-style escape, such as `\u{1B}` for ESC; everything else,
    /// including non-ASCII letters and emoji, is kept as it is.
    ///
    /// A backslash is not itself escaped, so the escape is for reading, not
    /// for decoding back (the JSON and SARIF reports carry the exact text).
    package static func escape(_ text: String) -> String {
        // The common case: nothing to escape, no copy. The bytes are scanned where they lie when
        // the string has them contiguous (nearly always): a walk of the generic UTF8View costs
        // several times as much per byte, and every finding's line goes through here.
        let suspect = text.utf8.withContiguousStorageIfAvailable(mayNeedEscape) ?? text.utf8.contains(where: mayNeedEscape)
        guard suspect, text.unicodeScalars.contains(where: needsEscape) else { return text }
        return escape(text) { _ in nil }
    }

    /// Whether `byte` may start or be a character ``needsEscape(_:)`` (C0, DEL, or the lead byte of
    /// U+0080–U+009F, U+061C, U+2000–U+2FFF or U+F000–U+FFFF).
    @inline(__always)
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || (byte >= 0x7F && (byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF))
    }

    /// Whether any of `bytes` ``mayNeedEscape(_:)``, eight at a time: a word with no byte below
    /// 0x20, no DEL and no byte of 0x80 or above (printable ASCII, nearly every word of a
    /// message) is passed by three tests; only a word that fails one is looked at byte by byte.
    private static func mayNeedEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let below20 = (word &- 0x20 &* ones) & ~word & highs  // some byte below 0x20 (or a high byte: looked at anyway)
            let del = word ^ (0x7F &* ones)
            let isDEL = (del &- ones) & ~del & highs  // some byte equal to 0x7F
            if (word & highs) | below20 | isDEL != 0 {
                for j in i..<(i + 8) where mayNeedEscape(bytes[j]) { return true }
            }
            i += 8
        }
        while i < raw.count {
            if mayNeedEscape(bytes[i]) { return true }
            i += 1
        }
        return false
    }

    /// `text` with each character that `substitute` gives a replacement for
    /// replaced (an output format's own escapes, such as XML's `&lt;`), and
    /// every other character that ``needsEscape(_:)`` made visible as in
    /// ``escape(_:)``.
    package static func escape(_ text: String, substituting substitute: (Unicode.Scalar) -> String?) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = substitute(scalar) {
                out.append(contentsOf: replacement.unicodeScalars)
            } else if needsEscape(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
