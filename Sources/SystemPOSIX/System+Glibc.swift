#if canImport(Glibc)
    import CSystemLinux
    import Glibc

    // What Linux (glibc) spells differently from macOS, and only that: making and accepting sockets
    // with their flags, SIGPIPE on send, the file times, the rlimit call, malloc arenas and the
    // epoll backend. Its macOS twin is `System+Darwin.swift`, the same functions under
    // `#if canImport(Darwin)` (one file per platform, as FlyingFox does); keep the two sets equal
    // (PortabilityTests checks it). What both spell alike is written once, in the other System files.

    extension System {
        // MARK: - Sockets

        /// `SOCK_STREAM` as `addrinfo` wants it (an enum on glibc).
        static let streamSocketType = Int32(SOCK_STREAM.rawValue)

        /// A stream socket for `info`, close-on-exec (and non-blocking when asked) in the one call
        /// Linux allows; -1 with `errno` set on failure.
        static func openSocket(_ info: addrinfo, nonBlocking: Bool) -> Int32 {
            let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
            return Glibc.socket(info.ai_family, info.ai_socktype | flags, info.ai_protocol)
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

        /// Sends without raising SIGPIPE on a vanished peer (`MSG_NOSIGNAL`).
        public static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(SystemError) -> IOResult<
            Int
        > {
            try syscall("send") { Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL)) }
        }

        // MARK: - Files

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

        /// One malloc arena for the whole process. glibc gives each thread that allocates an arena of
        /// its own; with the event loops allocating journal entries that other threads free, 10,000
        /// kept entries then spread over several arenas and resident memory grows with fragmentation
        /// (measured: 64-70 MiB after 200,000 requests instead of 47-48 MiB, at the same throughput).
        public static func useOneMallocArena() {
            _ = CSystemLinux_limit_malloc_arenas(1)
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

        /// The events ready, at most `max` (up to 128): those ready now, or when `blocking`, at
        /// least one (`epoll_wait` without a timeout). Replaces `events`' contents.
        static func take(_ poller: Int32, into events: inout [PollEvent], max: Int, blocking: Bool) {
            events.removeAll(keepingCapacity: true)
            let limit = Swift.min(max, 128)
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: limit) { tokens in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit) { readiness in
                    let count = CSystemLinux_epoll_wait(
                        poller, tokens.baseAddress, readiness.baseAddress, Int32(limit), blocking ? -1 : 0)
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

        /// An eventfd registered under `token`: writing to it ends a wait.
        static func addInterrupt(_ poller: Int32, token: UInt64) throws(SystemError) -> Int32 {
            try syscallValue("eventfd") { CSystemLinux_epoll_add_interrupt(poller, token) }
        }

        static func interrupt(_ poller: Int32, _ handle: Int32) {
            _ = CSystemLinux_eventfd_signal(handle)
        }
    }

    /// The backend `Poller` uses on this platform.
    typealias PlatformPoller = EpollBackend
#endif
