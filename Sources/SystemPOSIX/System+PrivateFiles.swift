#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Files and folders with private modes (the CA's state folder) and advisory locks: the same calls on
// glibc and Darwin, written once.
/// `truncate(2)` under another name: inside `System` the name is its own method's.
private func truncateFile(_ path: String, _ size: off_t) -> Int32 { truncate(path, size) }

extension System {
    // MARK: - Private files and folders

    /// Whether something exists at `path` (`access(F_OK)`).
    public static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is a folder (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates the folder `path` (one level) with `mode`, less the umask: true when it made it,
    /// false when something already exists there (EEXIST).
    @discardableResult
    public static func makeDirectory(_ path: String, mode: Int) throws(SystemError) -> Bool {
        if mkdir(path, mode_t(mode)) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        throw SystemError(code: code, function: "mkdir")
    }

    /// The current folder (`getcwd`), or nil when it cannot be named.
    public static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// The temporary file `writeFileAtomically` writes before renaming it over `path`:
    /// `PATH.PID.tmp`, next to it (the same file system, so the rename is atomic).
    public static func temporaryPath(for path: String) -> String {
        "\(path).\(getpid()).tmp"
    }

    /// Replaces `path` whole with `bytes`: writes `temporaryPath(for: path)` with exactly `mode`
    /// (`fchmod` after `open`: the umask may take bits away, never adds any), `fsync`s it and renames
    /// it over `path`, so a crash leaves the old file or the new one, never half of one. On failure the
    /// temporary file is removed; an error from `open` concerns the temporary file. The temporary file
    /// is made new (`O_EXCL`, after removing one a crash left): a symbolic link planted at its name is
    /// removed, never written through. A link at `path` itself is replaced, not followed.
    public static func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: Int) throws(SystemError) {
        let temporary = temporaryPath(for: path)
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SystemError(code: errno, function: "open") }
        var failure: SystemError?
        if fchmod(fd, mode_t(mode)) != 0 { failure = SystemError(code: errno, function: "fchmod") }
        if failure == nil { failure = writeAll(fd, bytes) }
        if failure == nil && fsync(fd) != 0 { failure = SystemError(code: errno, function: "fsync") }
        close(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = SystemError(code: errno, function: "rename") }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
    }

    /// Opens `path` (creating it with `mode`; a symbolic link there is refused, not followed) and
    /// locks it exclusively (`flock`), waiting while another process holds it; the descriptor to hand
    /// to `unlockFile`.
    public static func lockFile(_ path: String, mode: Int) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SystemError(code: errno, function: "open") }
        while flock(fd, LOCK_EX) != 0 {
            let code = errno
            if code != EINTR {
                close(fd)
                throw SystemError(code: code, function: "flock")
            }
        }
        return fd
    }

    /// Releases a lock from `lockFile` and closes its descriptor.
    public static func unlockFile(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    /// The size of the open file `fd` (`fstat`), or nil when it cannot be read.
    public static func fileSize(_ fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Cuts the open file `fd` back to `size` bytes (`ftruncate`): what a failed append left.
    public static func truncate(_ fd: Int32, to size: Int64) -> SystemError? {
        ftruncate(fd, off_t(size)) == 0 ? nil : SystemError(code: errno, function: "ftruncate")
    }

    /// The permission bits of `path` (`0o700`), or nil when it cannot be `stat`ed.
    public static func permissions(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode) & 0o7777
    }

    /// Sets the permission bits of `path` (`chmod`).
    public static func setPermissions(_ path: String, _ mode: Int) -> SystemError? {
        chmod(path, mode_t(mode)) == 0 ? nil : SystemError(code: errno, function: "chmod")
    }

    /// Cuts the file at `path` back to `size` bytes (`truncate`).
    public static func truncate(path: String, to size: Int64) -> SystemError? {
        truncateFile(path, off_t(size)) == 0 ? nil : SystemError(code: errno, function: "truncate")
    }
}
