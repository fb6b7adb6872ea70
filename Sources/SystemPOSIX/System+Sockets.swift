#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Listening and connecting, written once: glibc and Darwin spell getaddrinfo, bind, listen and
// connect alike. What differs, making the socket itself (flags in one call on Linux, `fcntl` and
// SO_NOSIGPIPE after it on macOS), is `System.openSocket` in each platform's file.

extension System {
    /// Small answers must not wait for Nagle's algorithm.
    public static func setNoDelay(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// The port a socket is bound to (after binding to port 0).
    public static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return address(storage).port
    }

    /// Shuts our sending side (a FIN), leaving the socket readable.
    public static func shutdownWrite(_ fd: Int32) {
        shutdownSocket(fd, Int32(SHUT_WR))
    }

    /// A listening TCP socket bound to `host:port` (port 0 picks a free one), non-blocking and
    /// close-on-exec. Tries each address `getaddrinfo` gives, like every server does.
    public static func listen(host: String, port: Int, backlog: Int32) throws(SystemError) -> Int32 {
        let list = try resolve(host: host, port: port, passive: true)
        defer { freeaddrinfo(list) }
        var lastError = SystemError(code: EADDRNOTAVAIL, function: "bind")
        var candidate: UnsafeMutablePointer<addrinfo>? = list
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = openSocket(info.pointee, nonBlocking: true)
            guard fd >= 0 else {
                lastError = SystemError(code: errno, function: "socket")
                continue
            }
            setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            guard let error = bindAndListen(fd, info.pointee, backlog: backlog) else { return fd }
            lastError = error
            close(fd)
        }
        throw lastError
    }

    /// A blocking TCP connection to `host:port` whose reads and writes give up after `timeout` seconds.
    /// `admit` sees the numeric address `host` resolved to (as `getnameinfo` writes it: `127.0.0.1`,
    /// `::1`) before the socket connects to exactly that address; false refuses it (`EACCES`). A
    /// caller that must not reach some addresses checks the one it connects to, not a second
    /// resolution that DNS could answer differently.
    public static func connect(
        host: String, port: Int, timeout: Double, admit: (String) -> Bool = { _ in true }
    ) throws(SystemError) -> Int32 {
        let list = try resolve(host: host, port: port, passive: false)
        defer { freeaddrinfo(list) }
        let info = list.pointee
        guard admit(numericText(info) ?? "") else { throw SystemError(code: EACCES, function: "connect") }
        let fd = try syscallValue("socket") { openSocket(info, nonBlocking: false) }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        if let error = connectSocket(fd, info) {
            close(fd)
            throw error
        }
        return fd
    }

    /// `host` as the numeric address it spells, without asking DNS (`127.1`, `2130706433` and
    /// `0x7f000001` are all `127.0.0.1`, as `inet_aton` reads them; `[::1]` needs no brackets); nil
    /// for a name. For checks that must see through every spelling of an address.
    public static func numericAddress(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        return numericText(first.pointee)
    }

    /// The address of `info` as `getnameinfo` writes it numerically.
    private static func numericText(_ info: addrinfo) -> String? {
        var text = [CChar](repeating: 0, count: 1025)
        let status = getnameinfo(
            info.ai_addr, info.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The addresses of `host:port` for a stream socket (free them with `freeaddrinfo`).
    private static func resolve(host: String, port: Int, passive: Bool) throws(SystemError)
        -> UnsafeMutablePointer<addrinfo>
    {
        var hints = addrinfo()
        hints.ai_flags = passive ? AI_PASSIVE | AI_NUMERICSERV : 0
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SystemError(code: status, function: "getaddrinfo", domain: .addressInfo)
        }
        return first
    }
}

// Outside `System`, where `bind`, `listen` and `connect` are the C library's, not System's own.

private func bindAndListen(_ fd: Int32, _ info: addrinfo, backlog: Int32) -> SystemError? {
    if bind(fd, info.ai_addr, info.ai_addrlen) != 0 { return SystemError(code: errno, function: "bind") }
    if listen(fd, backlog) != 0 { return SystemError(code: errno, function: "listen") }
    return nil
}

private func connectSocket(_ fd: Int32, _ info: addrinfo) -> SystemError? {
    connect(fd, info.ai_addr, info.ai_addrlen) == 0 ? nil : SystemError(code: errno, function: "connect")
}

private func shutdownSocket(_ fd: Int32, _ how: Int32) {
    _ = shutdown(fd, how)
}
