internal import LifecycleLogPlatform

/// The collector's listening socket: where it binds, and whether that is the
/// loopback interface (which only this machine reaches).
struct CollectorListener {
    /// The listening socket (non-blocking).
    let fd: Int32
    /// The address as given.
    let host: String
    /// The port bound: the real one when 0 was asked for.
    let port: Int
    /// Whether the address is a loopback one (127.0.0.0/8, ::1).
    let isLoopback: Bool

    /// `host:port`, with IPv6 addresses in brackets.
    var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Splits `HOST:PORT` (`[::1]:7777` for IPv6).
    static func parse(_ text: String) throws(LifecycleLogError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw LifecycleLogError(.invalidArgument, "\"\(text)\" is not HOST:PORT; write it like 127.0.0.1:7777 (port 0 picks a free port)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw LifecycleLogError(.invalidArgument, "\"\(text)\" has no host; write 127.0.0.1:\(port) to listen on this machine only")
        }
        return (host, port)
    }

    /// Binds and listens. A non-loopback address is refused unless `tokenGiven`.
    static func open(host: String, port: Int, tokenGiven: Bool) throws(LifecycleLogError) -> CollectorListener {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketIO.streamType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list else {
            throw LifecycleLogError(.invalidArgument, "cannot listen on \(host): \(String(cString: gai_strerror(status))); give an address of this machine, such as 127.0.0.1")
        }
        defer { freeaddrinfo(info) }
        let loopback = isLoopback(info.pointee.ai_addr)
        guard loopback || tokenGiven else {
            throw LifecycleLogError(.invalidArgument,
                                    "refusing to listen on \(host) without a token: it is not a loopback address, so anyone on the network could write into the trace; add --token SECRET (and give apps CollectorSink(…, token: SECRET)), or listen on 127.0.0.1")
        }
        let fd = socket(info.pointee.ai_family, SocketIO.streamType, 0)
        guard fd >= 0 else { throw LifecycleLogError(.io, "cannot create a socket: \(SocketIO.text(errno))") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw LifecycleLogError(.io, "cannot listen on \(host):\(port): \(SocketIO.text(code))\(code == EADDRINUSE ? "; another program uses the port: pick another one, or 0 for any free port" : "")")
        }
        SocketIO.configure(fd, tcp: false)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Int in
                guard getsockname(fd, address, &length) == 0 else { return port }
                return Int(portOf(address))
            }
        }
        return CollectorListener(fd: fd, host: host, port: bound, isLoopback: loopback)
    }

    private static func portOf(_ address: UnsafePointer<sockaddr>) -> UInt16 {
        switch Int32(address.pointee.sa_family) {
        case AF_INET: return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        case AF_INET6: return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        default: return 0
        }
    }

    private static func isLoopback(_ address: UnsafePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127 }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var bytes = pointer.pointee.sin6_addr
                return withUnsafeBytes(of: &bytes) { raw in
                    let loopback6 = raw.prefix(15).allSatisfy { $0 == 0 } && raw[15] == 1
                    let mapped = raw.prefix(10).allSatisfy { $0 == 0 } && raw[10] == 0xFF && raw[11] == 0xFF && raw[12] == 127
                    return loopback6 || mapped
                }
            }
        default:
            return false
        }
    }
}
