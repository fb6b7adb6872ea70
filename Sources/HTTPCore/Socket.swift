#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, throwing wrappers over the POSIX socket calls the server makes, so the connection and
/// listener code reads as intent rather than as errno juggling.
enum Socket {
    /// A listening socket bound to `host:port` (port 0 picks a free one), non-blocking.
    static func listen(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }

        var lastErrno: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { lastErrno = errno; continue }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, backlog) == 0 {
                setNonBlocking(fd)
                setCloseOnExec(fd)
                return fd
            }
            lastErrno = errno
            close(fd)
        }
        throw .cannotListen(host: host, port: port, reason: errorText(lastErrno))
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD, 0)
        _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }

    /// Small answers must not wait for Nagle's algorithm: latency is what a mock is judged on.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The port a socket is bound to (after binding to port 0).
    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return address(storage).port
    }

    /// `address:port`, with IPv6 addresses in brackets.
    static func describe(_ storage: sockaddr_storage) -> String {
        let (host, port) = address(storage)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func address(_ storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafePointer(to: &storage) { pointer -> (String, Int) in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var address = v4.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                    return (cText(text), Int(UInt16(bigEndian: v4.pointee.sin_port)))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return (cText(text), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
                }
            default:
                return ("unknown", 0)
            }
        }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func cText(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Ignore SIGPIPE process-wide, once: a peer that vanishes mid-write must cost an EPIPE, not the
    /// process. Sends also pass MSG_NOSIGNAL, so this is belt and braces.
    static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case cannotResolve(host: String, reason: String)
    case cannotListen(host: String, port: Int, reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case let .cannotResolve(host, reason): "cannot resolve host '\(host)': \(reason)"
        case let .cannotListen(host, port, reason): "cannot listen on \(host):\(port): \(reason)"
        case .alreadyStarted: "the server is already started"
        }
    }
}
