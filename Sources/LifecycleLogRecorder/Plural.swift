/// A count with its noun in the right number: `1 event`, `2 events`, `0 events`; `plural` for a
/// noun whose plural is not the singular with an `s` (`1 process`, `2 processes`). Every message
/// that counts says it so (issue 30: 12, "1 warnings").
package func plural(_ count: some BinaryInteger, _ word: String, _ plural: String? = nil) -> String {
    count == 1 ? "1 \(word)" : "\(count) \(plural ?? word + "s")"
}
