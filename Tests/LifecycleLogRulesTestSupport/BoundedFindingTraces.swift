// What both halves of `BoundedFindingTests` (LifecycleLogRulesTests', LifecycleLogTests') build their traces with.

import Foundation

/// Opens window `w1` of scene `main` at t 1 (seq 2 after a `launch()`).
package let open1 = #"{"event":"open","t":1,"window":"w1","scene":"main"}"#

/// One window with `activities` activities started (`a1` …, seqs 4 on), then `trips` round
/// trips to the background and back.
package func activityTrace(activities: Int, trips: Int) -> String {
    var lines = [launch(), open1, #"{"event":"phase","t":2,"window":"w1","phase":"active"}"#]
    var t = 3
    for i in 1...activities {
        lines.append(#"{"event":"activity","t":\#(t),"window":"w1","name":"a\#(i)","state":"start"}"#)
        t += 1
    }
    for _ in 0..<trips {
        for phase in ["inactive", "background", "inactive", "active"] {
            lines.append(#"{"event":"phase","t":\#(t),"window":"w1","phase":"\#(phase)"}"#)
            t += 1
        }
    }
    return lines.joined(separator: "\n")
}

/// How many times `text` holds `part`.
package func count(_ part: String, in text: String) -> Int {
    text.components(separatedBy: part).count - 1
}
