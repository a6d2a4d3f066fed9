import LifecycleLogRecorder

/// Gathers OTLP log records or spans into export requests, one JSON line each (the file format
/// of the Collector's `otlpjsonfile` receiver), at most ``limit`` items to a request.
///
/// In a request, each process that has items is one `ResourceLogs` (or `ResourceSpans`) with its
/// resource and one scope, in the order the processes first have an item in that request; its items
/// keep the order they were added in. So a trace whose app and widget take turns still gives one
/// request per ``limit`` items, each process in it once.
struct OTLPRequestWriter {
    /// The member names of one kind of request.
    struct Signal {
        /// The request's list of resources (`resourceLogs`).
        let resources: String
        /// A resource's list of scopes (`scopeLogs`).
        let scopes: String
        /// A scope's list of items (`logRecords`).
        let items: String

        /// `ExportLogsServiceRequest`.
        static let logs = Signal(resources: "resourceLogs", scopes: "scopeLogs", items: "logRecords")
        /// `ExportTraceServiceRequest`.
        static let traces = Signal(resources: "resourceSpans", scopes: "scopeSpans", items: "spans")
    }

    /// The most items in one request (one line of the file).
    static let limit = 512

    let signal: Signal
    let body: (String) throws -> Void
    /// The request being gathered: each process's resource and items.
    private var groups: [(process: String, resource: JSONValue, items: [JSONValue])] = []
    private var count = 0

    /// A writer of `signal` requests that passes each line, newline included, to `body`.
    init(_ signal: Signal, body: @escaping (String) throws -> Void) {
        self.signal = signal
        self.body = body
    }

    /// Adds `item` to the resource of `process`, writing the request first when it is full.
    mutating func add(_ item: JSONValue, process: String, resource: @autoclosure () -> JSONValue) throws {
        if count >= Self.limit { try flush() }
        if let i = groups.firstIndex(where: { $0.process == process }) {
            groups[i].items.append(item)
        } else {
            groups.append((process, resource(), [item]))
        }
        count += 1
    }

    /// Writes the request gathered so far, if it has any item.
    mutating func flush() throws {
        guard count > 0 else { return }
        let request: JSONValue = .object([JSONMember(signal.resources, .array(groups.map { group in
            .object([
                JSONMember("resource", group.resource),
                JSONMember(signal.scopes, .array([.object([
                    JSONMember("scope", OTLPJSON.scope),
                    JSONMember(signal.items, .array(group.items)),
                ])])),
            ])
        }))])
        var out: [UInt8] = []
        JSONWriter.write(request, into: &out)
        out.append(UInt8(ascii: "\n"))
        try body(String(decoding: out, as: UTF8.self))
        groups.removeAll(keepingCapacity: true)
        count = 0
    }
}
