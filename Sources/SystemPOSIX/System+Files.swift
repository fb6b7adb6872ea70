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
        fileKind(fd)?.kind == .regular
    }

    /// Opens `path` for reading without waiting: `open` of a FIFO with no writer would block until
    /// one comes. Reads of a regular file are not affected by the flag.
    public static func openForReadingWithoutWaiting(_ path: String) throws(SystemError) -> Int32 {
        try syscallValue("open") { openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    }

    /// The whole regular file at `path`, refused when it is another kind of file (a FIFO would
    /// block the reader, `/dev/zero` never ends) or larger than `limit` bytes, before it is read.
    public static func readRegularFile(_ path: String, limit: Int) throws(WholeFileError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try openForReadingWithoutWaiting(path)
        } catch {
            throw .system(error)
        }
        defer { close(fd) }
        guard let (kind, size) = fileKind(fd) else { throw .system(SystemError(code: errno, function: "fstat")) }
        guard kind == .regular else { throw .notRegular(kind) }
        if size > Int64(limit) { throw .tooLarge(bytes: size) }
        let bytes: [UInt8]
        do {
            bytes = try readAll(fd, limit: limit)
        } catch {
            throw .system(error)
        }
        // The file grew while it was read.
        if bytes.count > limit { throw .tooLarge(bytes: nil) }
        return bytes
    }

    /// What `fd` is and its size in bytes (for a regular file), from `fstat`; nil when it fails.
    public static func fileKind(_ fd: Int32) -> (kind: FileKind, size: Int64)? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        let kind: FileKind
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .pipe
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        return (kind, Int64(status.st_size))
    }
}

/// Why `System.readRegularFile` refused a file.
public enum WholeFileError: Error, Sendable {
    case system(SystemError)
    case notRegular(FileKind)
    /// Its size when known (nil: it grew past the limit while it was read).
    case tooLarge(bytes: Int64?)
}

/// What a path names, as far as reading it whole is concerned.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, pipe, characterDevice, blockDevice, socket, other

    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .pipe: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
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
