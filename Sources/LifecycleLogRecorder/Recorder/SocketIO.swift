internal import LifecycleLogPlatform

/// The POSIX socket calls shared by ``CollectorSink`` (in apps) and the
/// collector of `LifecycleLog`: non-blocking TCP sockets, waits with `poll`,
/// sends that finish partial writes and retry `EINTR`, and never raise
/// `SIGPIPE` (`SO_NOSIGPIPE` on Apple platforms, `MSG_NOSIGNAL` elsewhere), so
/// a peer that died never kills the process. One audited place for the
/// pointers the socket API takes; `package`, not public.
package enum SocketIO {
    #if canImport(Darwin)
    package static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #else
    package static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// The system's text for an `errno` value.
    package static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Milliseconds left until `deadline`, at least 0.
    package static func remaining(_ deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - .now
        if left <= .zero { return 0 }
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }

    /// Makes `fd` non-blocking, without `SIGPIPE`, and (for TCP) without Nagle's delay.
    package static func configure(_ fd: Int32, tcp: Bool = true) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var one: Int32 = 1
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if tcp {
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Waits until `fd` is readable (`POLLIN`) or writable (`POLLOUT`); false on timeout.
    package static func wait(_ fd: Int32, for events: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, remaining(deadline))
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return true }  // let the next call report the error
        }
    }

    /// Connects to `host:port` (any address `getaddrinfo` gives, in order),
    /// waiting at most until `deadline`; returns a configured socket.
    package static func connect(host: String, port: Int, until deadline: ContinuousClock.Instant) throws(LifecycleLogError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw LifecycleLogError(.io, "cannot resolve \(host): \(String(cString: gai_strerror(status)))", path: "\(host):\(port)")
        }
        defer { freeaddrinfo(first) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, streamType, 0)
            if fd < 0 { lastError = errno; continue }
            configure(fd)
            var result = systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0, errno == EINPROGRESS || errno == EINTR {
                if wait(fd, for: Int32(POLLOUT), until: deadline) {
                    var code: Int32 = 0
                    var size = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size)
                    result = code == 0 ? 0 : -1
                    lastError = code
                } else {
                    lastError = ETIMEDOUT
                }
            } else if result != 0 {
                lastError = errno
            }
            if result == 0 { return fd }
            close(fd)
        }
        throw LifecycleLogError(.io, "cannot connect to \(host):\(port): \(text(lastError))", path: "\(host):\(port)")
    }

    /// Sends every byte of `bytes`, finishing partial writes, until `deadline`.
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(LifecycleLogError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, sendFlags)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            if sent < 0, code == EINTR { continue }
            if sent < 0, code == EAGAIN || code == EWOULDBLOCK {
                if wait(fd, for: Int32(POLLOUT), until: deadline) { continue }
                throw LifecycleLogError(.io, "timed out sending")
            }
            throw LifecycleLogError(.io, "send failed: \(text(code))")
        }
    }

    /// Sends what `fd` accepts now without blocking; returns the number of bytes
    /// sent, or `nil` when the peer is gone.
    package static func sendSome(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        while true {
            let sent = bytes.withUnsafeBytes { raw in send(fd, raw.baseAddress!, raw.count, sendFlags) }
            if sent >= 0 { return sent }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    /// The outcome of one ``receive(_:into:)``.
    package enum Received: Equatable {
        /// This many bytes were appended.
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed the connection, or it failed.
        case closed
    }

    /// Appends what `fd` has to give now (up to 64 KiB) to `buffer`.
    package static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Received {
        let chunk = 64 * 1024
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let got = buffer.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress! + start, chunk, 0) }
            if got > 0 {
                buffer.removeLast(chunk - got)
                return .bytes(got)
            }
            let code = errno
            if got < 0, code == EINTR { continue }
            buffer.removeLast(chunk)
            if got < 0, code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .closed
        }
    }
}

/// `connect(2)`, named apart from ``SocketIO/connect(host:port:until:)``.
private func systemConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    #if canImport(Darwin)
    Darwin.connect(fd, address, length)
    #else
    Glibc.connect(fd, address, length)
    #endif
}
