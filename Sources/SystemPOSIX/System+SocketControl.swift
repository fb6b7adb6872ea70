#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Calls the server itself has no use for but its tests and tools do (hostile clients, child
// processes): written once, since glibc and Darwin spell them alike.
extension System {
    /// Shrinks (or grows) the kernel's receive buffer, so that a reader that stops reading backs
    /// up its peer quickly.
    public static func setReceiveBufferSize(_ fd: Int32, bytes: Int32) {
        setOption(fd, SOL_SOCKET, SO_RCVBUF, bytes)
    }

    /// Makes `close` abort the connection (an RST instead of a FIN): `SO_LINGER` with a zero timeout.
    public static func resetOnClose(_ fd: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// Whether `fd` has something to read (data, end of input or an error) within `milliseconds`.
    public static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Ends a child process at once (SIGKILL), for a test that must not leave one behind.
    public static func killProcess(_ pid: Int32) {
        _ = kill(pid, SIGKILL)
    }
}
