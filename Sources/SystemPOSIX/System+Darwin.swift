#if canImport(Darwin)
    import Darwin

    // What macOS spells differently from Linux, and only that, written from Apple's headers and man
    // pages. `System+Glibc.swift` has the same functions for Linux; keep the two sets equal
    // (PortabilityTests checks it); what both spell alike is written once, in the other System files. Where Linux
    // has a one-call form macOS lacks: `accept4` is `accept` + `fcntl`, `SOCK_CLOEXEC`/`SOCK_NONBLOCK`
    // are `fcntl` after `socket`, and `MSG_NOSIGNAL` is `SO_NOSIGPIPE` set once on the socket.

    extension System {
        // MARK: - Sockets

        /// `SOCK_STREAM` as `addrinfo` wants it.
        static let streamSocketType = SOCK_STREAM

        /// A stream socket for `info`, then close-on-exec, SIGPIPE-free (macOS has no
        /// `MSG_NOSIGNAL`) and non-blocking when asked, by `fcntl` and `setsockopt` (macOS has no
        /// `SOCK_CLOEXEC`); -1 with `errno` set on failure.
        static func openSocket(_ info: addrinfo, nonBlocking: Bool) -> Int32 {
            let fd = Darwin.socket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard fd >= 0 else { return fd }
            addFlags(fd, status: nonBlocking ? O_NONBLOCK : 0, descriptor: FD_CLOEXEC)
            setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
            return fd
        }

        /// The next pending connection, made non-blocking, close-on-exec and SIGPIPE-free (macOS has
        /// no `accept4`), with the peer's `address:port`.
        public static func accept(_ fd: Int32) throws(SystemError) -> IOResult<(fd: Int32, remote: String)> {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = try syscall("accept") {
                withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Darwin.accept(fd, $0, &length) }
                }
            }
            switch result {
            case .done(let client):
                addFlags(client, status: O_NONBLOCK, descriptor: FD_CLOEXEC)
                setOption(client, SOL_SOCKET, SO_NOSIGPIPE, 1)
                return .done((client, describe(storage)))
            case .wouldBlock:
                return .wouldBlock
            }
        }

        /// Sends; SIGPIPE is off for the socket (`SO_NOSIGPIPE`, set by `accept` and `connect`).
        public static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(SystemError) -> IOResult<
            Int
        > {
            try syscall("send") { Darwin.send(fd, bytes, count, 0) }
        }

        // MARK: - Files

        /// Device, inode, size and modification time of `path`, or nil when it cannot be `stat`ed.
        public static func fileSignature(_ path: String) -> FileSignature? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return FileSignature(
                device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
                size: Int64(info.st_size),
                modifiedSeconds: Int(info.st_mtimespec.tv_sec), modifiedNanoseconds: Int(info.st_mtimespec.tv_nsec)
            )
        }

        // MARK: - Limits

        /// The soft and hard limits on open descriptors (`RLIMIT_NOFILE`); `UInt64.max` when unlimited.
        static func openFileLimits() -> (soft: UInt64, hard: UInt64) {
            var limit = rlimit()
            guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return (0, 0) }
            return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
        }

        /// Sets the soft limit on open descriptors, keeping the hard one; the errno when refused
        /// (EINVAL above OPEN_MAX, which `System.raiseOpenFileLimit` then retries below).
        static func setOpenFileSoftLimit(_ soft: UInt64, hard: UInt64) -> Int32? {
            var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
            return setrlimit(RLIMIT_NOFILE, &limit) == 0 ? nil : errno
        }

        // MARK: - Process

        /// glibc's per-thread arenas have no macOS counterpart to limit: nothing to do.
        public static func useOneMallocArena() {}
    }

    /// The poller backend on Darwin: kqueue.
    enum KqueueBackend: PollerBackend {
        /// The `kevent` struct, named apart from the `kevent` function.
        private typealias KEvent = Darwin.kevent

        /// A poller: one descriptor that is readable when any descriptor registered with it is ready,
        /// so one dispatch source can watch many sockets. Edge-triggered (`EV_CLEAR`): an event says a
        /// socket *became* ready, so its owner reads or writes until `wouldBlock` before it waits again.
        static func open() throws(SystemError) -> Int32 {
            let poller = try syscallValue("kqueue") { Darwin.kqueue() }
            System.addFlags(poller, status: 0, descriptor: FD_CLOEXEC)
            return poller
        }

        /// Registers `fd` with `poller` for input and output, reported under `token`.
        static func add(_ poller: Int32, _ fd: Int32, token: UInt64) throws(SystemError) {
            let flags = UInt16(EV_ADD | EV_CLEAR)
            let udata = UnsafeMutableRawPointer(bitPattern: UInt(token))
            var changes = [
                KEvent(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: flags, fflags: 0, data: 0, udata: udata),
                KEvent(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: flags, fflags: 0, data: 0, udata: udata)
            ]
            _ = try syscallValue("kevent") { Darwin.kevent(poller, &changes, 2, nil, 0, nil) }
        }

        /// Unregisters `fd` (closing it would too; this makes it immediate and explicit).
        static func remove(_ poller: Int32, _ fd: Int32) {
            var changes = [
                KEvent(
                    ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE), fflags: 0, data: 0,
                    udata: nil),
                KEvent(
                    ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: UInt16(EV_DELETE), fflags: 0, data: 0,
                    udata: nil)
            ]
            _ = Darwin.kevent(poller, &changes, 2, nil, 0, nil)
        }

        /// The events ready, at most `max` (up to 128): those ready now, or when `blocking`, at
        /// least one (`kevent` without a timeout). Replaces `events`' contents. kqueue reports
        /// reading and writing separately; they are kept as separate events.
        static func take(_ poller: Int32, into events: inout [PollEvent], max: Int, blocking: Bool) {
            events.removeAll(keepingCapacity: true)
            let limit = Swift.min(max, 128)
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            withUnsafeTemporaryAllocation(of: KEvent.self, capacity: limit) { list in
                var count: Int32
                repeat {
                    count =
                        blocking
                        ? Darwin.kevent(poller, nil, 0, list.baseAddress, Int32(limit), nil)
                        : Darwin.kevent(poller, nil, 0, list.baseAddress, Int32(limit), &now)
                } while count < 0 && errno == EINTR
                for i in 0..<Swift.max(0, Int(count)) {
                    let event = list[i]
                    let token = UInt64(UInt(bitPattern: event.udata))
                    let failed = event.flags & UInt16(EV_EOF | EV_ERROR) != 0
                    if event.filter == Int16(EVFILT_READ) {
                        events.append(PollEvent(token: token, readable: true, writable: failed, peerClosed: failed))
                    } else if event.filter == Int16(EVFILT_WRITE) {
                        events.append(PollEvent(token: token, readable: failed, writable: true, peerClosed: failed))
                    } else if event.filter == Int16(EVFILT_USER) {
                        events.append(PollEvent(token: token, readable: true, writable: false, peerClosed: false))
                    }
                }
            }
        }

        /// The user event `interrupt` triggers (`EVFILT_USER`, cleared once reported), under
        /// `token`; it needs no descriptor.
        static func addInterrupt(_ poller: Int32, token: UInt64) throws(SystemError) -> Int32 {
            var change = KEvent(
                ident: interruptIdent, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0,
                data: 0, udata: UnsafeMutableRawPointer(bitPattern: UInt(token)))
            _ = try syscallValue("kevent") { Darwin.kevent(poller, &change, 1, nil, 0, nil) }
            return -1
        }

        static func interrupt(_ poller: Int32, _ handle: Int32) {
            var change = KEvent(
                ident: interruptIdent, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0,
                udata: nil)
            _ = Darwin.kevent(poller, &change, 1, nil, 0, nil)
        }

        /// The user event's identifier (user events have their own namespace, apart from descriptors).
        private static let interruptIdent: UInt = 1
    }

    /// The backend `Poller` uses on this platform.
    typealias PlatformPoller = KqueueBackend
#endif
