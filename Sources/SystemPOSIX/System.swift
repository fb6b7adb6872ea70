#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one door to the C library. Every system call the package's Swift code makes goes through
/// `System` (PortabilityTests checks that nothing outside SystemPOSIX names the C library); inside
/// SystemPOSIX, only `Mutex` (its lock) and `ReadableFile` (`errno`) reach it directly, and the
/// libraries linked (Dispatch, OpenSSL, libcurl) make their own calls. What glibc and Darwin spell
/// differently lives in `System+Glibc.swift` and `System+Darwin.swift`, one file per platform with
/// the same set of functions (the test suite checks both the door and the parity); what they spell
/// alike is written once, in a file per concern (`System+Sockets.swift`, `System+Files.swift`,
/// `System+LinkSafeFiles.swift`...). Modelled on swift-nio's `NIOPosix/System.swift` and
/// FlyingFox's `Socket+Glibc.swift`/`Socket+Darwin.swift`.
public enum System {}

/// What a call that may find nothing to do returned: its value, or "would block" (EAGAIN /
/// EWOULDBLOCK on a non-blocking descriptor, or the timeout of a blocking one).
public enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}

/// What a poller (`System.makePoller`) says of one registered descriptor: its token, and whether it
/// became readable (data, end of input or an error to read) and writable (room to send, or an
/// error), and whether the peer has closed or the socket failed: then the end of input is there to
/// read after the data, and no further event will say so.
public struct PollEvent: Sendable, Equatable {
    public var token: UInt64
    public var readable: Bool
    public var writable: Bool
    public var peerClosed: Bool

    public init(token: UInt64, readable: Bool, writable: Bool, peerClosed: Bool) {
        self.token = token
        self.readable = readable
        self.writable = writable
        self.peerClosed = peerClosed
    }
}

/// A failed system call: its errno (or, for name resolution, its `getaddrinfo` code) and its name.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public enum Domain: Sendable { case errno, addressInfo }

    public let code: Int32
    public let function: StaticString
    public let domain: Domain

    public init(code: Int32, function: StaticString, domain: Domain = .errno) {
        self.code = code
        self.function = function
        self.domain = domain
    }

    /// The C library's words for the code (`strerror` or `gai_strerror`), without the function name.
    public var reason: String {
        switch domain {
        case .errno: String(cString: strerror(code))
        case .addressInfo: String(cString: gai_strerror(code))
        }
    }

    public var description: String { "\(function): \(reason)" }

    /// `accept` lost a connection that was already gone, or a firewall said no: accept the next one.
    public var isAbortedConnection: Bool {
        code == ECONNABORTED || code == EPROTO || code == EPERM
    }

    /// Another socket holds the address (a bind).
    public var isAddressInUse: Bool { domain == .errno && code == EADDRINUSE }

    /// The peer aborted the connection (an RST), e.g. a server closing with input unread.
    public var isConnectionReset: Bool { code == ECONNRESET }

    /// Out of descriptors or memory: retrying at once would spin.
    public var isOutOfResources: Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }
}

/// Runs a system call that returns -1 and sets errno on failure: retries on EINTR, maps
/// EAGAIN/EWOULDBLOCK to `.wouldBlock`, throws everything else as a `SystemError` named `function`.
/// Generic and always inlined so that the hot path (read, send) pays nothing for it.
@inline(__always)
func syscall<Value: FixedWidthInteger>(
    _ function: StaticString, _ body: () -> Value
) throws(SystemError) -> IOResult<Value> {
    while true {
        let result = body()
        if result != -1 { return .done(result) }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw SystemError(code: code, function: function)
        }
    }
}

/// `syscall` for calls where "would block" cannot happen (or means failure): the value, or a throw.
@inline(__always)
func syscallValue<Value: FixedWidthInteger>(
    _ function: StaticString, _ body: () -> Value
) throws(SystemError) -> Value {
    switch try syscall(function, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(code: EAGAIN, function: function)
    }
}

/// The signals the command line handles.
public enum ProcessSignal: Sendable, CaseIterable {
    case terminate, interrupt, hangUp

    public var number: Int32 {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        case .hangUp: SIGHUP
        }
    }
}

/// What `stat` says about a file, enough to notice that it changed.
public struct FileSignature: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}

/// One address of a network interface (`getifaddrs`), with the interface's state.
public struct InterfaceAddress: Sendable, Hashable {
    /// The interface's name (`en0`, `eth0`, `lo`).
    public var interface: String
    /// The address in its canonical text form (`inet_ntop`), without a zone.
    public var address: String
    public var isIPv6: Bool
    /// fe80::/10 for IPv6, 169.254.0.0/16 for IPv4: reachable on the link only (IPv6 ones need a zone).
    public var isLinkLocal: Bool
    public var isLoopback: Bool
    /// The interface is up (`IFF_UP`).
    public var isUp: Bool

    public init(interface: String, address: String, isIPv6: Bool, isLinkLocal: Bool, isLoopback: Bool, isUp: Bool) {
        self.interface = interface
        self.address = address
        self.isIPv6 = isIPv6
        self.isLinkLocal = isLinkLocal
        self.isLoopback = isLoopback
        self.isUp = isUp
    }
}

/// A moment on the UTC calendar (`struct tm` without time zones): month 1...12, day 1...31.
public struct CalendarTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}

extension System {
    /// Standard output and standard error (1 and 2 everywhere POSIX).
    public static let standardOutput: Int32 = 1
    public static let standardError: Int32 = 2

    /// Writes every byte to `fd`, retrying partial writes and EINTR; the error that stopped it, or nil.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> SystemError? {
        bytes.withUnsafeBytes { raw -> SystemError? in
            var offset = 0
            while offset < raw.count {
                do throws(SystemError) {
                    switch try write(fd, raw.baseAddress! + offset, raw.count - offset) {
                    case .done(let written) where written > 0: offset += written
                    case .done, .wouldBlock: return SystemError(code: EIO, function: "write")
                    }
                } catch {
                    return error
                }
            }
            return nil
        }
    }

    /// Reads a whole (small) file. Reading stops once more than `limit` bytes are in, so a result
    /// longer than `limit` means "the file is larger than that" (its first bytes only).
    public static func readFile(_ path: String, limit: Int = .max) throws(SystemError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        return try readAll(fd, limit: limit)
    }

    /// Reads `fd` to its end, stopping once more than `limit` bytes are in (as `readFile`).
    public static func readAll(_ fd: Int32, limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            switch try read(fd, chunk.baseAddress!, chunk.count) {
            case .done(0): return bytes
            case .done(let count):
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                if bytes.count > limit { return bytes }
            case .wouldBlock: throw SystemError(code: EAGAIN, function: "read")
            }
        }
    }

    /// The addresses a peer can reach this machine at: interfaces that are up, each address once,
    /// IPv6 link-local ones left out (fe80::/10 needs a zone, which neither a certificate nor a URL
    /// typed on a phone can carry). Loopback included.
    public static func reachableAddresses() -> [InterfaceAddress] {
        var seen = Set<String>()
        return interfaceAddresses()
            .filter { $0.isUp && !($0.isIPv6 && $0.isLinkLocal) }
            .filter { seen.insert($0.address).inserted }
    }

    /// The reachable addresses other than loopback, IPv4 first: what a person types on a phone.
    /// `includingIPv6` false for a socket bound to IPv4's 0.0.0.0, which IPv6 peers cannot reach.
    public static func networkAddresses(includingIPv6: Bool = true) -> [String] {
        let addresses = reachableAddresses().filter { !$0.isLoopback }
        return (addresses.filter { !$0.isIPv6 } + (includingIPv6 ? addresses.filter(\.isIPv6) : [])).map(\.address)
    }

    /// Writes `bytes` to `path`, replacing what was there (reports, JUnit XML).
    public static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SystemError) {
        let fd = try openForReplacing(path)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            switch try result.get() {
            case .done(let count): offset += count
            case .wouldBlock: throw SystemError(code: EAGAIN, function: "write")
            }
        }
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

    private static func cText(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    static func addFlags(_ fd: Int32, status: Int32 = 0, descriptor: Int32 = 0) {
        if status != 0 {
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | status)
        }
        if descriptor != 0 {
            let flags = fcntl(fd, F_GETFD, 0)
            _ = fcntl(fd, F_SETFD, flags | descriptor)
        }
    }
}
