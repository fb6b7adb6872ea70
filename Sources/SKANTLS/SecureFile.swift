#if SKAN_MOCK_TLS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing the state folder's files with POSIX calls, because their modes matter:
/// private keys 0600, the folder 0700, each file replaced whole (a crash never leaves half a key).
enum SecureFile {
    static func contents(of path: String) throws(TLSSetupError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TLSSetupError(file: path, errnoText(errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
                if bytes.count > 1 << 20 { throw TLSSetupError(file: path, "larger than 1 MiB, not a PEM file") }
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw TLSSetupError(file: path, errnoText(errno))
            }
        }
    }

    /// Writes `bytes` to a temporary file with `mode`, then renames it over `path`.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(TLSSetupError) {
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TLSSetupError(file: temporary, errnoText(errno)) }
        var failure: Int32?
        if fchmod(fd, mode) != 0 { failure = errno }  // the umask may have taken bits away; never adds any
        var offset = 0
        while failure == nil && offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 { offset += written } else if errno != EINTR { failure = errno }
        }
        if failure == nil && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw TLSSetupError(file: path, errnoText(failure))
        }
    }

    /// Creates `path` and any missing parents with mode 0700; an existing folder is left as it is.
    static func makeDirectory(_ path: String) throws(TLSSetupError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw TLSSetupError(file: current, errnoText(errno)) }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw TLSSetupError(file: path, "not a folder")
        }
    }

    /// Opens (creating, 0600) and exclusively locks `path` with flock, waiting for another holder;
    /// returns the descriptor for ``unlock(_:)``.
    static func lock(_ path: String) throws(TLSSetupError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TLSSetupError(file: path, errnoText(errno)) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                let code = errno
                close(fd)
                throw TLSSetupError(file: path, errnoText(code))
            }
        }
        return fd
    }

    static func unlock(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// `path` made absolute against the current folder, for messages a user copies.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd)
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return relative.isEmpty || relative == "." ? base : base + "/" + relative
    }

    static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
#endif
