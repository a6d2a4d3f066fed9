/// A filtered, aligned listing of events (`replay dump`).
public struct EventListing: Sendable {
    /// Which events to list.
    public struct Filter: Sendable, Hashable {
        /// The first seq to list.
        public var from: UInt64 = 1
        /// The last seq to list.
        public var to: UInt64 = .max
        /// Only events that name this window.
        public var window: WindowID?
        /// Only events of these kinds (empty: every kind).
        public var kinds: Set<String> = []

        /// Every event.
        public init(from: UInt64 = 1, to: UInt64 = .max, window: WindowID? = nil, kinds: Set<String> = []) {
            self.from = from
            self.to = to
            self.window = window
            self.kinds = kinds
        }

        func matches(_ seq: UInt64, _ event: Event) -> Bool {
            seq >= from && seq <= to && (window == nil || event.window == window) && (kinds.isEmpty || kinds.contains(event.name))
        }
    }

    /// The event kinds of the trace format, in the order the spec lists them.
    public static let knownKinds = ["launch", "terminate", "kill", "open", "dismiss", "phase", "delegate", "write", "read", "save", "activity", "mark"]

    /// Calls `line` with the header and then one aligned line per matching
    /// event: seq, t, kind, window and the other fields as `name=value`.
    ///
    /// - Returns: the kinds of the events listed.
    /// - Throws: `LifecycleLogError` for a missing, damaged or malformed trace.
    @discardableResult
    public static func list(_ path: String, filter: Filter, _ line: (String) throws -> Void) throws -> Set<String> {
        var listed: Set<String> = []
        try line(pad("SEQ", 8) + pad("T (ms)", 14) + pad("KIND", 10) + pad("WINDOW", 14) + "FIELDS")
        let body: (UInt64, Event) throws -> Bool = { seq, event in
            if seq > filter.to { return false }
            guard filter.matches(seq, event) else { return true }
            listed.insert(event.name)
            let fields = event.jsonMembers.filter { !["event", "t", "window"].contains($0.name) }.map { member -> String in
                var out: [UInt8] = []
                if case .string(let s) = member.value { out.append(contentsOf: s.utf8) } else { JSONWriter.write(member.value, into: &out) }
                return "\(member.name)=\(String(decoding: out, as: UTF8.self))"
            }
            try line(pad(String(seq), 8) + pad(JSONWriter.number(event.t), 14) + pad(VisibleText.escape(event.name), 10)
                 + pad(VisibleText.escape(event.window ?? "-"), 14) + VisibleText.escape(fields.joined(separator: " ")))
            return true
        }
        if Replayer.isJSONLines(path) {
            try Replayer.forEachEvent(in: path, body)
        } else {
            try Trace(path: path).forEachEvent(from: max(filter.from, 1), body)  // starts at --from without reading what precedes it
        }
        return listed
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width - 1 ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
