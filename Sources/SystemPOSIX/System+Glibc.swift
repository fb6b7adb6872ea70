#if canImport(Glibc)
    import CSystemLinux
    import Glibc

    // The system calls on Linux (glibc). Its macOS twin is `System+Darwin.swift`, the same functions
    // under `#if canImport(Darwin)` (one file per platform, as FlyingFox does); keep the two sets equal
    // (PortabilityTests checks it).

    extension System {
        // MARK: - Sockets

        /// A listening TCP socket bound to `host:port` (port 0 picks a free one), non-blocking and
        /// close-on-exec. Tries each address `getaddrinfo` gives, like every server does.
        public static func listen(host: String, port: Int, backlog: Int32) throws(SystemError) -> Int32 {
            var hints = addrinfo()
            hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw SystemError(code: status, function: "getaddrinfo", domain: .addressInfo)
            }
            defer { freeaddrinfo(list) }

            var lastError = SystemError(code: EADDRNOTAVAIL, function: "bind")
            var candidate: UnsafeMutablePointer<addrinfo>? = first
            while let info = candidate {
                candidate = info.pointee.ai_next
                let type = info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                let fd = Glibc.socket(info.pointee.ai_family, type, info.pointee.ai_protocol)
                guard fd >= 0 else {
                    lastError = SystemError(code: errno, function: "socket")
                    continue
                }
                setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
                if Glibc.bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                    lastError = SystemError(code: errno, function: "bind")
                } else if Glibc.listen(fd, backlog) != 0 {
                    lastError = SystemError(code: errno, function: "listen")
                } else {
                    return fd
                }
                _ = Glibc.close(fd)
            }
            throw lastError
        }

        /// A blocking TCP connection to `host:port` whose reads and writes give up after `timeout` seconds.
        public static func connect(host: String, port: Int, timeout: Double) throws(SystemError) -> Int32 {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let info = list else {
                throw SystemError(code: status, function: "getaddrinfo", domain: .addressInfo)
            }
            defer { freeaddrinfo(list) }
            let type = info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
            let fd = try syscallValue("socket") { Glibc.socket(info.pointee.ai_family, type, info.pointee.ai_protocol) }
            var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            guard Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                let error = SystemError(code: errno, function: "connect")
                _ = Glibc.close(fd)
                throw error
            }
            return fd
        }

        /// The next pending connection, non-blocking and close-on-exec in one call (`accept4`), with
        /// the peer's `address:port`.
        public static func accept(_ fd: Int32) throws(SystemError) -> IOResult<(fd: Int32, remote: String)> {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let result = try syscall("accept4") {
                withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        CSystemLinux_accept4(fd, $0, &length, flags)
                    }
                }
            }
            switch result {
            case .done(let client): return .done((client, describe(storage)))
            case .wouldBlock: return .wouldBlock
            }
        }

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

        /// Sends without raising SIGPIPE on a vanished peer (`MSG_NOSIGNAL`).
        public static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(SystemError) -> IOResult<
            Int
        > {
            try syscall("send") { Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL)) }
        }

        /// Shuts our sending side (a FIN), leaving the socket readable.
        public static func shutdownWrite(_ fd: Int32) {
            _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        }

        // MARK: - Descriptors

        public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws(SystemError)
            -> IOResult<Int>
        {
            try syscall("read") { Glibc.read(fd, buffer, count) }
        }

        public static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(SystemError) -> IOResult<
            Int
        > {
            try syscall("write") { Glibc.write(fd, bytes, count) }
        }

        /// Processors online: how many event loops keep every core busy.
        public static func processorCount() -> Int {
            Swift.max(1, Int(Glibc.sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }

        /// Closes `fd`. Not retried on EINTR: on Linux the descriptor is gone whatever `close` says.
        public static func close(_ fd: Int32) {
            _ = Glibc.close(fd)
        }

        // MARK: - Files

        static func openForReading(_ path: String) throws(SystemError) -> Int32 {
            try syscallValue("open") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
        }

        /// Opens `path` for writing from the start, creating it (mode 0644) or emptying it.
        static func openForReplacing(_ path: String) throws(SystemError) -> Int32 {
            try syscallValue("open") { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        }

        /// Opens `path` for appending, creating it (mode 0644) if needed.
        public static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
            try syscallValue("open") { Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        }

        /// Whether `fd` is a regular file (not a pipe, terminal or socket).
        public static func isRegularFile(_ fd: Int32) -> Bool {
            var status = stat()
            return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }

        /// Device, inode, size and modification time of `path`, or nil when it cannot be `stat`ed.
        public static func fileSignature(_ path: String) -> FileSignature? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return FileSignature(
                device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
                size: Int64(info.st_size),
                modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec)
            )
        }

        // MARK: - Limits

        /// The soft and hard limits on open descriptors (`RLIMIT_NOFILE`); `UInt64.max` when unlimited.
        static func openFileLimits() -> (soft: UInt64, hard: UInt64) {
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
            return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
        }

        /// Sets the soft limit on open descriptors, keeping the hard one; the errno when refused.
        static func setOpenFileSoftLimit(_ soft: UInt64, hard: UInt64) -> Int32? {
            var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
            return setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? nil : errno
        }

        // MARK: - Process

        /// Milliseconds since the Unix epoch (`CLOCK_REALTIME`).
        public static func realtimeMilliseconds() -> Int64 {
            var ts = timespec()
            _ = clock_gettime(CLOCK_REALTIME, &ts)
            return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
        }

        /// The variable's value, or nil when unset.
        public static func environment(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            return String(cString: value)
        }

        /// Sets `signal` to be ignored (so that a dispatch source can take it, or a dead peer cannot kill us).
        public static func ignore(_ signal: ProcessSignal) {
            _ = Glibc.signal(signal.number, SIG_IGN)
        }

        /// Ignores SIGXFSZ: a write past a file-size limit (`ulimit -f`) must fail with EFBIG, which
        /// the journal log handles, instead of ending the process.
        public static func ignoreFileSizeLimit() {
            _ = Glibc.signal(SIGXFSZ, SIG_IGN)
        }

        /// Ignores SIGPIPE process-wide: a reader that vanishes must cost an EPIPE, not the process.
        public static func ignoreBrokenPipe() {
            _ = Glibc.signal(SIGPIPE, SIG_IGN)
        }

        /// One malloc arena for the whole process. glibc gives each thread that allocates an arena of
        /// its own; with the event loops allocating journal entries that other threads free, 10,000
        /// kept entries then spread over several arenas and resident memory grows with fragmentation
        /// (measured: 64-70 MiB after 200,000 requests instead of 47-48 MiB, at the same throughput).
        public static func useOneMallocArena() {
            _ = CSystemLinux_limit_malloc_arenas(1)
        }

        public static func sleep(microseconds: UInt32) {
            _ = usleep(microseconds)
        }

        public static func exit(_ code: Int32) -> Never {
            Glibc.exit(code)
        }
    }

    /// The poller backend on Linux: epoll (through the C shim, which Swift's Glibc module lacks).
    enum EpollBackend: PollerBackend {
        /// A poller: one descriptor that is readable when any descriptor registered with it is ready,
        /// so one dispatch source can watch many sockets. Edge-triggered (`EPOLLET`): an event says a
        /// socket *became* ready, so its owner reads or writes until `wouldBlock` before it waits again.
        static func open() throws(SystemError) -> Int32 {
            try syscallValue("epoll_create1") { CSystemLinux_epoll_create() }
        }

        /// Registers `fd` with `poller` for input and output, reported under `token`.
        static func add(_ poller: Int32, _ fd: Int32, token: UInt64) throws(SystemError) {
            _ = try syscallValue("epoll_ctl") { CSystemLinux_epoll_add(poller, fd, token) }
        }

        /// Unregisters `fd` (closing it would too; this makes it immediate and explicit).
        static func remove(_ poller: Int32, _ fd: Int32) {
            _ = CSystemLinux_epoll_remove(poller, fd)
        }

        /// The events ready now, at most `max` (up to 128); never blocks. Replaces `events`' contents.
        static func take(_ poller: Int32, into events: inout [PollEvent], max: Int) {
            events.removeAll(keepingCapacity: true)
            let limit = Swift.min(max, 128)
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: limit) { tokens in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit) { readiness in
                    let count = CSystemLinux_epoll_take(poller, tokens.baseAddress, readiness.baseAddress, Int32(limit))
                    for i in 0..<Swift.max(0, Int(count)) {
                        let bits = Int32(readiness[i])
                        events.append(
                            PollEvent(
                                token: tokens[i], readable: bits & CSYSTEMLINUX_READABLE != 0,
                                writable: bits & CSYSTEMLINUX_WRITABLE != 0,
                                peerClosed: bits & CSYSTEMLINUX_PEER_CLOSED != 0))
                    }
                }
            }
        }
    }

    /// The backend `Poller` uses on this platform.
    typealias PlatformPoller = EpollBackend
#endif
