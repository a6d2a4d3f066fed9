/// The first line a client sends a collector (spec/collector-protocol.md):
/// `{"lifecycle-log":"collector","version":1,"process":"…","kind":"app","pid":123,"token":"…"}`.
package struct CollectorHandshake: Sendable, Hashable {
    /// The newest protocol version this collector speaks.
    package static let protocolVersion: Int64 = 1

    /// The process the connection records (`""` for the main app).
    package var process: String
    /// `app`, `widget`, `extension` or `runner`.
    package var kind: ProcessKind
    /// The client's process id, for messages.
    package var pid: Int64?
    /// The token the client presents, if any.
    package var token: String?
    /// The client's `delivery` name (`CollectorSink` sends it): the collector answers with the
    /// highest delivery number of this client its trace holds, and stores each of its events once.
    package var client: String?
    /// The client's own clock (its `t`) when it sent the handshake: the connection's events are
    /// placed on the trace's timeline by this, not by the time its first event arrives, since that
    /// event may have waited in the client while no collector ran.
    package var now: Double?

    /// Reads and validates a handshake line.
    ///
    /// - Throws: `LifecycleLogError` (`invalidInput`) naming what is wrong;
    ///   the collector sends its message to the client and closes the connection.
    package static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(LifecycleLogError) -> CollectorHandshake {
        func refuse(_ message: String) -> LifecycleLogError {
            LifecycleLogError(.invalidInput, "bad handshake: \(message); the first line must be {\"lifecycle-log\":\"collector\",\"version\":1,\"process\":\"…\",\"kind\":\"app\"}", line: 1)
        }
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch { throw refuse("not valid JSON (\(error.message))") }
        guard case .object(let members) = value else { throw refuse("not a JSON object") }
        func member(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
        guard member("lifecycle-log") == .string("collector") else { throw refuse("\"lifecycle-log\" must be \"collector\"") }
        guard case .number(let versionText)? = member("version"), let version = Int64(versionText) else {
            throw refuse("\"version\" must be a whole number")
        }
        guard version == protocolVersion else {
            throw LifecycleLogError(.unsupportedVersion, "the client speaks collector protocol version \(version), this collector version \(protocolVersion); use the same LifecycleLog version on both sides", line: 1)
        }
        var handshake = CollectorHandshake(process: "", kind: .app)
        switch member("process") {
        case nil: break
        case .string(let name)?: handshake.process = name
        case let other?: throw refuse("\"process\" must be a string, got \(LifecycleEvent.describe(other))")
        }
        switch member("kind") {
        case nil: break
        case .string(let name)?:
            guard let kind = ProcessKind(rawValue: name) else { throw refuse("\"kind\" must be app, widget, extension or runner, got \"\(name)\"") }
            handshake.kind = kind
        case let other?: throw refuse("\"kind\" must be a string, got \(LifecycleEvent.describe(other))")
        }
        switch member("pid") {
        case nil: break
        case .number(let text)?:
            guard let pid = Int64(text) else { throw refuse("\"pid\" must be a whole number") }
            handshake.pid = pid
        case let other?: throw refuse("\"pid\" must be a number, got \(LifecycleEvent.describe(other))")
        }
        switch member("token") {
        case nil: break
        case .string(let token)?: handshake.token = token
        case let other?: throw refuse("\"token\" must be a string, got \(LifecycleEvent.describe(other))")
        }
        switch member("client") {
        case nil: break
        case .string(let client)? where !client.isEmpty && client.utf8.count <= 256: handshake.client = client
        case let other?: throw refuse("\"client\" must be a string of 1 to 256 bytes, got \(LifecycleEvent.describe(other))")
        }
        switch member("now") {
        case nil: break
        case .number(let text)?:
            guard let now = Double(text), now.isFinite, now >= 0 else { throw refuse("\"now\" must be a number of milliseconds, 0 or more") }
            handshake.now = now
        case let other?: throw refuse("\"now\" must be a number, got \(LifecycleEvent.describe(other))")
        }
        return handshake
    }

    /// How messages name the client: `com.example.widget (widget, pid 42)`.
    package var clientName: String {
        "\(process.isEmpty ? "main process" : process) (\(kind.rawValue)\(pid.map { ", pid \($0)" } ?? ""))"
    }
}
