#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Files opened without following a symbolic link at their path (O_NOFOLLOW, lstat): a link planted
// where skan-mock keeps a key or a pid file must not make it change or write the file the link
// names, nor through a hard link (a second name of another file). glibc and Darwin spell these alike.

extension System {
    /// Whether `path` itself is a symbolic link (`lstat`).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Opens `path` for reading without following a symbolic link there (ELOOP, see
    /// `SystemError.isSymbolicLink`) and without waiting on a FIFO: for `fchmod` and `fstat`.
    public static func openWithoutFollowing(_ path: String) throws(SystemError) -> Int32 {
        try syscallValue("open") { openNoFollow(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
    }

    /// The permission bits of the open file `fd` (`0o600`), or nil when it cannot be `fstat`ed.
    public static func permissions(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int(info.st_mode) & 0o7777
    }

    /// Sets the permission bits of the open file `fd` (`fchmod`).
    public static func setPermissions(_ fd: Int32, _ mode: Int) -> SystemError? {
        fchmod(fd, mode_t(mode)) == 0 ? nil : SystemError(code: errno, function: "fchmod")
    }

    /// How many names the open file `fd` has (`st_nlink`), or nil when it cannot be `fstat`ed. A
    /// file written in place through one of two hard links changes under the other name too, so a
    /// file the server writes must have no other name.
    public static func linkCount(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int(info.st_nlink)
    }

    /// Whether `path` is (still) the file open as `fd`: same device and inode, the path itself
    /// (`lstat`: a link there is another file).
    public static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}

extension SystemError {
    /// `open` with `O_NOFOLLOW` met a symbolic link (ELOOP).
    public var isSymbolicLink: Bool { code == ELOOP }
}

/// `open(2)` outside `System`, whose `open` is its own.
private func openNoFollow(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
