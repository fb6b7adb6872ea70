#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Descriptors and files, written once: glibc and Darwin spell these alike.

extension System {
    /// Processors online: how many event loops keep every core busy.
    public static func processorCount() -> Int {
        Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    public static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) throws(SystemError)
        -> IOResult<Int>
    {
        try syscall("read") { readDescriptor(fd, buffer, count) }
    }

    public static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) throws(SystemError)
        -> IOResult<Int>
    {
        try syscall("write") { writeDescriptor(fd, bytes, count) }
    }

    /// Closes `fd`. Not retried on EINTR: on Linux the descriptor is gone whatever `close` says, and
    /// on macOS its state is unspecified (retrying could close another thread's new descriptor).
    public static func close(_ fd: Int32) {
        _ = closeDescriptor(fd)
    }

    static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        try syscallValue("open") { openFile(path, O_RDONLY | O_CLOEXEC) }
    }

    /// Opens `path` for writing from the start, creating it (mode 0644) or emptying it.
    static func openForReplacing(_ path: String) throws(SystemError) -> Int32 {
        try syscallValue("open") { openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    }

    /// Opens `path` for appending, creating it (mode 0644) if needed.
    public static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        try syscallValue("open") { openFile(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
    }

    /// Whether `fd` is a regular file (not a pipe, terminal or socket).
    public static func isRegularFile(_ fd: Int32) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}

// Outside `System`, where `open`, `read`, `write` and `close` are the C library's, not System's own.

private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

private func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
