/// A filtered, aligned listing of events (`replay dump`).
public struct EventListing: Sendable {
    /// Which events to list.
    public struct Filter: Sendable, Hashable {
        /// The first seq to list.
        public var from: UInt64 = 1
        /// The last seq to list.
        public var to: UInt64 = .max
        /// Only events of this process (`""`: the main app; `nil`: every process).
        public var process: String?
        /// Only events that name this window (of the process ``process`` names, or of every process).
        public var window: WindowID?
        /// Only events of these kinds (empty: every kind).
        public var kinds: Set<String> = []

        /// Every event.
        public init(from: UInt64 = 1, to: UInt64 = .max, process: String? = nil, window: WindowID? = nil, kinds: Set<String> = []) {
            self.from = from
            self.to = to
            self.process = process
            self.window = window
            self.kinds = kinds
        }

        func matches(_ seq: UInt64, _ event: LifecycleEvent) -> Bool {
            seq >= from && seq <= to && (process == nil || (event.process ?? "") == process)
                && (window == nil || event.window == window) && (kinds.isEmpty || kinds.contains(event.name))
        }
    }

    /// The event kinds of the trace format, in the order the spec lists them.
    public static let knownKinds = ["launch", "terminate", "kill", "open", "dismiss", "phase", "delegate", "write", "read", "save", "activity", "mark", "diagnostic"]

    /// Calls `line` with the header and then one aligned line per matching
    /// event: seq, t, kind, window and the other fields as `name=value`. A window
    /// of another process than the main app is shown with its process,
    /// `w1 (com.example.notes.share)`, so that two processes' `w1`s never read as one; the
    /// columns are as wide as their widest value listed (up to ``widestColumn``),
    /// so that FIELDS starts in one column on every line.
    ///
    /// - Returns: the kinds of the events listed.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace, or
    ///   `invalidArgument` when ``Filter/process`` has no event in the seq range (naming those that have).
    @discardableResult
    public static func list(_ path: String, filter: Filter, _ line: (String) throws -> Void) throws -> Set<String> {
        try Replayer.refuseFolder(path)
        // The events in the seq range, in order, until `body` returns false. Standard input can be
        // read only once: its events are kept for the second pass.
        var kept: [(UInt64, LifecycleEvent)]?
        func forEachEvent(_ body: (UInt64, LifecycleEvent) throws -> Bool) throws {
            if let kept {
                for (seq, event) in kept where try !body(seq, event) { return }
            } else if Replayer.isJSONLines(path) {
                try Replayer.forEachEvent(in: path, body)
            } else {
                try Trace(path: path).forEachEvent(from: max(filter.from, 1), body)  // starts at --from without reading what precedes it
            }
        }
        if path == "-" {
            var events: [(UInt64, LifecycleEvent)] = []
            try forEachEvent { seq, event in
                if seq > filter.to { return false }
                if seq >= filter.from { events.append((seq, event)) }
                return true
            }
            kept = events
        }
        // First pass: the widest value of each column listed (a window of another process is
        // labelled with it, wider than the main app's), so that every column, FIELDS last, lines
        // up on every line (issue 30: 12).
        var seqWidth = 8, timeWidth = 14, kindWidth = 10, windowWidth = 14
        try forEachEvent { seq, event in
            if seq > filter.to { return false }
            guard filter.matches(seq, event) else { return true }
            widen(&seqWidth, String(seq).count)
            widen(&timeWidth, JSONWriter.number(event.t).count)
            widen(&kindWidth, VisibleText.escape(event.name).count)
            if let label = windowLabel(event) { widen(&windowWidth, label.count) }
            return true
        }
        var listed: Set<String> = []
        try line(pad("SEQ", seqWidth) + pad("T (ms)", timeWidth) + pad("KIND", kindWidth) + pad("WINDOW", windowWidth) + "FIELDS")
        var processes: [String] = []  // the processes with events in the seq range, for an unknown --process
        try forEachEvent { seq, event in
            if seq > filter.to { return false }
            if filter.process != nil, seq >= filter.from, !processes.contains(event.process ?? "") { processes.append(event.process ?? "") }
            guard filter.matches(seq, event) else { return true }
            listed.insert(event.name)
            // A window's process goes with the window; without a window, it stays a field.
            let labelled = event.window != nil && event.process.map { !$0.isEmpty } == true
            let hidden: Set<String> = labelled ? ["event", "t", "window", "process"] : ["event", "t", "window"]
            let fields = event.jsonMembers.filter { !hidden.contains($0.name) }.map { member -> String in
                var out: [UInt8] = []
                if case .string(let s) = member.value { out.append(contentsOf: s.utf8) } else { JSONWriter.write(member.value, into: &out) }
                return "\(member.name)=\(String(decoding: out, as: UTF8.self))"
            }
            try line(pad(String(seq), seqWidth) + pad(JSONWriter.number(event.t), timeWidth) + pad(VisibleText.escape(event.name), kindWidth)
                 + pad(windowLabel(event) ?? "-", windowWidth) + VisibleText.escape(fields.joined(separator: " ")))
            return true
        }
        if let process = filter.process, !processes.contains(process) {
            let names = processes.map { $0.isEmpty ? "\"\" (the main app)" : "\"\(VisibleText.escape($0))\"" }
            let range = filter.to == .max ? "from seq \(filter.from)" : "in seqs \(filter.from) to \(filter.to)"
            throw LifecycleLogError(.invalidArgument, "no event of process \"\(VisibleText.escape(process))\" \(range); "
                + (names.isEmpty ? "there are no events there" : "the processes with events there: \(names.joined(separator: ", "))"),
                path: path)
        }
        return listed
    }

    /// Widens a column of `width` for a value of `count` characters: as ``pad(_:_:)`` lays it out,
    /// a value one shorter than the column fits, one space before the next; a column that grows
    /// leaves two (up to ``widestColumn``).
    private static func widen(_ width: inout Int, _ count: Int) {
        if count >= width { width = max(width, min(count + 2, widestColumn)) }
    }

    /// The columns are at most this wide (unless their default is wider): a longer value runs into the next
    /// column, one space before it.
    public static let widestColumn = 48

    /// The WINDOW column's text for `event`: its window, with its process when that is not the
    /// main app's (`w1 (com.example.notes.share)`), control characters escaped; `nil` without a window.
    static func windowLabel(_ event: LifecycleEvent) -> String? {
        guard let window = event.window else { return nil }
        let process = event.process.flatMap { $0.isEmpty ? nil : $0 }
        return VisibleText.escape(process.map { "\(window) (\($0))" } ?? window)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width - 1 ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
