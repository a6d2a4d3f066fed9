/// Stable identities of findings for SARIF's `partialFingerprints`, so that
/// code-scanning services recognise a finding from one run to the next, and the
/// same bug in sessions recorded on different devices as one.
///
/// The identity is the rule and the finding's `FindingSubject`: the scenes, the
/// keys with their scopes, and a few stable words the rule adds (a kill's
/// reason, an event kind, the process). Window ids, which every device names
/// differently (a UUID kept in `@SceneStorage`), seqs, run numbers, times and
/// document URLs are not part of it, so events added or removed elsewhere in the
/// trace do not change it either. A finding without a subject (an app's own
/// rule) is identified by its rule and its message with every seq in it
/// (`at seq 12`) replaced by `#`. The value is the FNV-1a 64-bit hash of that
/// identity in hex, then `:` and the occurrence of the identity within the trace
/// (1 for the first), as GitHub's own line hashes do, so that repeats of one
/// finding stay distinct (rules.md, section 5).
///
/// It keeps one counter per distinct identity seen in the trace (bounded by
/// the number of findings, not of events).
package struct FindingFingerprints: Sendable {
    /// The `partialFingerprints` key under which the value is written.
    package static let key = "lifecycleFindingHash/v2"

    private var occurrences: [UInt64: Int] = [:]

    /// A fingerprinter for the findings of one trace.
    package init() {}

    /// The fingerprint of `finding`, the next in report order of its trace.
    package mutating func next(_ finding: Finding) -> String {
        let hash = Self.hash(finding)
        let occurrence = (occurrences[hash] ?? 0) + 1
        occurrences[hash] = occurrence
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ":\(occurrence)"
    }

    /// FNV-1a 64 of the rule id, a NUL, then the subject (scenes, keys and details, each
    /// followed by a unit separator, the three lists separated by NULs); without a subject, the
    /// message with the numbers after `seq ` replaced by `#`.
    static func hash(_ finding: Finding) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for b in finding.rule.rawValue.utf8 { add(b) }
        add(0)
        if let subject = finding.subject {
            for list in [subject.scenes, subject.keys, subject.details] {
                add(0)
                for item in list {
                    for b in item.utf8 { add(b) }
                    add(0x1F)
                }
            }
            return hash
        }
        let seqWord = Array("seq ".utf8)
        var matched = 0       // how many bytes of "seq " end just here
        var inNumber = false  // inside the digits after "seq "
        for b in finding.message.utf8 {
            let digit = b >= 0x30 && b <= 0x39
            if inNumber && digit { continue }
            inNumber = false
            if matched == seqWord.count && digit {
                add(UInt8(ascii: "#"))
                inNumber = true
                matched = 0
                continue
            }
            add(b)
            // "seq " has no proper prefix that is also a suffix, so a mismatch restarts at 0 (or 1 on an "s").
            if matched < seqWord.count && b == seqWord[matched] { matched += 1 } else { matched = b == seqWord[0] ? 1 : 0 }
        }
        return hash
    }
}
