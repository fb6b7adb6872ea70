#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A lock a process holds on a file for its life (`fcntl` record locks, F_SETLK and F_GETLK), so that
// another process can tell whether the file's owner still runs and which process it is: the
// server's `--pid-file`. The kernel releases it when the process ends, however it ends. glibc and
// Darwin spell these alike. A record lock is released when the process closes any descriptor of the
// file, so its holder opens the file once.

/// What `System.lockRecord` found.
public enum RecordLock: Sendable, Equatable {
    /// This process holds the lock now.
    case acquired
    /// Another process holds it (its id).
    case heldBy(Int32)
}

extension System {
    /// Opens `path` for reading and writing, creating it with `mode`, without following a
    /// symbolic link there (ELOOP) and without waiting on a FIFO.
    public static func openForLocking(_ path: String, mode: Int) throws(SystemError) -> Int32 {
        try syscallValue("open") {
            openCreating(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode_t(mode))
        }
    }

    /// Takes the write lock on the whole of `fd` without waiting, or says which process holds it.
    public static func lockRecord(_ fd: Int32) throws(SystemError) -> RecordLock {
        // The holder may let go between the two calls: try again.
        for _ in 0..<100 {
            var lock = wholeFileLock(Int16(F_WRLCK))
            if fcntl(fd, F_SETLK, &lock) == 0 { return .acquired }
            let code = errno
            guard code == EAGAIN || code == EACCES || code == EINTR else {
                throw SystemError(code: code, function: "fcntl")
            }
            var probe = wholeFileLock(Int16(F_WRLCK))
            guard fcntl(fd, F_GETLK, &probe) == 0 else { throw SystemError(code: errno, function: "fcntl") }
            if probe.l_type != Int16(F_UNLCK) { return .heldBy(Int32(probe.l_pid)) }
        }
        throw SystemError(code: EAGAIN, function: "fcntl")
    }

    /// Replaces what the open file `fd` holds with `bytes`, in place (`ftruncate`, `pwrite`): the
    /// file keeps its inode, so a lock on it stays.
    public static func replaceContents(_ fd: Int32, _ bytes: [UInt8]) -> SystemError? {
        guard ftruncate(fd, 0) == 0 else { return SystemError(code: errno, function: "ftruncate") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(fd, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return SystemError(code: errno, function: "pwrite")
            }
            offset += written
        }
        return nil
    }

    /// At most `limit` bytes of the open file `fd` from its start (`pread`), or nil when it
    /// cannot be read.
    public static func contents(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + count, limit - count, off_t(count))
            }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            count += read
        }
        return Array(bytes.prefix(count))
    }

    private static func wholeFileLock(_ type: Int16) -> flock {
        var lock = flock()
        lock.l_type = type
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }
}

/// `open(2)` with a mode, outside `System`, whose `open` is its own.
private func openCreating(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
