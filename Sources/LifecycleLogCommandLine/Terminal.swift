internal import LifecycleLogPlatform
import LifecycleLog

/// What the terminal can show: colour (never when `NO_COLOR` is set or the
/// output is not a terminal) and a progress bar on standard error.
enum Terminal {
    /// Whether to colour what goes to `fd`.
    static func colors(_ fd: Int32) -> Bool {
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(fd) == 1
    }

    /// Colours severities and rule ids in the text report.
    static func colorize(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var l = String(line)
            l = l.replacing(": error: [", with: ": \u{1B}[1;31merror\u{1B}[0m: \u{1B}[36m[")
                .replacing(": warning: [", with: ": \u{1B}[1;33mwarning\u{1B}[0m: \u{1B}[36m[")
            if l.contains("\u{1B}[36m["), let close = l.firstRange(of: "] ") {
                l.replaceSubrange(close, with: "]\u{1B}[0m ")
            }
            out += l + "\n"
        }
        return String(out.dropLast())
    }

    /// Runs `body` with a progress reporter that draws a bar on standard
    /// error when it is a terminal (and nothing otherwise), cleared at the end. `unit` is what
    /// is counted (`"event"`, `"trace"`).
    static func withProgress<R>(_ title: String, total: UInt64? = nil, unit: String = "event", _ body: (Progress) throws -> R) throws -> R {
        let enabled = isatty(2) == 1 && getenv("CI") == nil
        let progress = Progress(title: title, total: total, enabled: enabled, unit: unit)
        defer { progress.finish() }
        return try body(progress)
    }

    /// A throttled progress bar.
    final class Progress: Sendable {
        let title: String
        let total: UInt64?
        let enabled: Bool
        /// What is counted, in the singular (`"event"`).
        let unit: String
        /// When the bar was last drawn (at first: when the work began, so that
        /// quick work never shows a bar).
        private let last: Locked<(drawnAt: Double, drawn: Bool)>

        init(title: String, total: UInt64?, enabled: Bool, unit: String = "event") {
            self.title = title
            self.total = total
            self.enabled = enabled
            self.unit = unit
            last = Locked((Self.now() + 0.15, false))
        }

        private static func now() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }

        /// Reports that `done` events are done; redraws at most ten times a second.
        func update(_ done: UInt64) {
            guard enabled else { return }
            let seconds = Self.now()
            let draw = last.withLock { state -> Bool in
                guard seconds - state.drawnAt >= 0.1 else { return false }
                state = (seconds, true)
                return true
            }
            guard draw else { return }
            var line = "\r\u{1B}[K\(title) "
            if let total, total > 0 {
                let fraction = min(1, Double(done) / Double(total))
                let filled = Int(fraction * 30)
                line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
                line += "\(Int(fraction * 100))% \(done)/\(plural(total, unit))"
            } else {
                line += plural(done, unit)
            }
            Output.standardError.write(line)
        }

        func finish() {
            guard enabled, last.withLock({ $0.drawn }) else { return }
            Output.standardError.write("\r\u{1B}[K")
        }
    }
}
