/// One client of the collector: its bytes in and out, where it is in its
/// lines, and what it has had stored. Owned by the collector's thread.
struct CollectorConnection {
    let fd: Int32
    /// The client's address (`127.0.0.1:52114`), for messages about a client that has not said who it is.
    let address: String
    /// When the connection was accepted, on the collector's clock (milliseconds): its handshake is due
    /// within the handshake timeout of it.
    let accepted: Double
    /// The bytes of `input` counted in the collector's total held before handshakes (0 once the handshake is read).
    var heldBeforeHandshake = 0
    /// Who the client said it is; `nil` until its handshake is read.
    var handshake: CollectorHandshake?
    /// Received bytes that are not yet a whole line (at most the line cap; before the handshake, the handshake cap).
    var input: [UInt8] = []
    /// Where in `input` the search for the next newline goes on.
    var scanned = 0
    /// The number of the line being received (1: the handshake).
    var lineNumber = 1
    /// The current line is longer than the cap: its bytes are dropped until its newline.
    var discarding = false
    /// Bytes to send: acknowledgements and error lines.
    var output: [UInt8] = []
    /// The client is refused or gone: read nothing more, send what is queued, then close.
    var closing = false
    /// The client closed its side.
    var hungUp = false
    /// The client's `t` of its last accepted event (its own clock).
    var lastClientTime: Double = 0
    /// Added to the client's `t` to place it on the trace's timeline; set by its first event.
    var offset: Double?
    /// Events of this connection in the current, uncommitted batch.
    var uncommitted = 0
    /// Events of this connection stored (committed) so far, with those the trace already held
    /// (a resuming client's events sent again).
    var stored = 0
    /// Events of this connection the trace held already (a resuming client's), counted in `stored`.
    var duplicates = 0
    /// Whether `stored` grew since the last acknowledgement.
    var needsAck = false

    init(fd: Int32, address: String, accepted: Double) {
        self.fd = fd
        self.address = address
        self.accepted = accepted
    }

    /// Who the client is, for messages.
    var name: String { handshake?.clientName ?? "client \(address)" }

    /// Queues one JSON object line for the client.
    mutating func send(_ members: [JSONMember]) {
        JSONWriter.writeObject(members, into: &output)
        output.append(0x0A)
    }

    /// Queues an error line about `line`.
    mutating func sendError(_ message: String, line: Int) {
        send([JSONMember("error", .string(message)), JSONMember("line", .number(String(line)))])
    }
}
