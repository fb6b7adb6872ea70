#if SKAN_MOCK_TLS
    import SystemPOSIX

    /// Reading and writing the state folder's files through SystemPOSIX, because their modes matter:
    /// private keys 0600, the folder 0700, each file replaced whole (a crash never leaves half a key).
    /// Failures name the file at fault.
    enum SecureFile {
        static func contents(of path: String) throws(TLSSetupError) -> [UInt8] {
            do {
                return try System.readRegularFile(path, limit: 1 << 20)
            } catch {
                switch error {
                case .system(let failure): throw TLSSetupError(file: path, failure.reason)
                case .notRegular(let kind): throw TLSSetupError(file: path, "\(kind), not a regular file")
                case .tooLarge: throw TLSSetupError(file: path, "larger than 1 MiB, not a PEM file")
                }
            }
        }

        /// Writes `bytes` to a temporary file with `mode`, then renames it over `path`.
        static func replace(_ path: String, with bytes: [UInt8], mode: Int) throws(TLSSetupError) {
            do {
                try System.writeFileAtomically(path, bytes, mode: mode)
            } catch {
                // Only opening concerns the temporary file; every later failure is the file's own.
                throw TLSSetupError(
                    file: error.function.description == "open" ? System.temporaryPath(for: path) : path, error.reason)
            }
        }

        /// Takes away the group's and others' permissions from `path` when it has any (a state folder
        /// made 0777 by hand, a key copied with 0644): the lines saying what was changed, for the log.
        static func makePrivate(_ path: String, mode: Int) throws(TLSSetupError) -> [String] {
            guard let current = System.permissions(path), current & 0o077 != 0 else { return [] }
            if let error = System.setPermissions(path, mode) {
                throw TLSSetupError(
                    file: path, "readable by others (mode \(String(current, radix: 8))) and \(error.reason)")
            }
            return [
                "\(path) was open to other users (mode \(String(current, radix: 8))): set to \(String(mode, radix: 8))"
            ]
        }

        /// `makePrivate` for the CA key: `path` itself, opened without following a symbolic link
        /// (`fchmod` on that descriptor). A link there is refused: changing or reading the file it
        /// names would change another file's mode (issue 43.12), and use a key someone else chose.
        static func makeKeyPrivate(_ path: String, mode: Int) throws(TLSSetupError) -> [String] {
            let fd: Int32
            do {
                fd = try System.openWithoutFollowing(path)
            } catch {
                if error.isSymbolicLink {
                    throw TLSSetupError(
                        file: path,
                        "is a symbolic link, which skan-mock does not follow for its CA key: put the key file itself there, or make a new CA with `skan-mock ca --renew` (it replaces the link)"
                    )
                }
                throw TLSSetupError(file: path, error.reason)
            }
            defer { System.close(fd) }
            guard let current = System.permissions(fd), current & 0o077 != 0 else { return [] }
            if let error = System.setPermissions(fd, mode) {
                throw TLSSetupError(
                    file: path, "readable by others (mode \(String(current, radix: 8))) and \(error.reason)")
            }
            return [
                "\(path) was open to other users (mode \(String(current, radix: 8))): set to \(String(mode, radix: 8))"
            ]
        }

        static func isSymbolicLink(_ path: String) -> Bool { System.isSymbolicLink(path) }

        /// Creates `path` and any missing parents with mode 0700; an existing folder is left as it is.
        static func makeDirectory(_ path: String) throws(TLSSetupError) {
            var current = path.hasPrefix("/") ? "" : "."
            for component in path.split(separator: "/") {
                current += "/" + component
                do {
                    try System.makeDirectory(current, mode: 0o700)
                } catch {
                    throw TLSSetupError(file: current, error.reason)
                }
            }
            guard System.isDirectory(path) else { throw TLSSetupError(file: path, "not a folder") }
        }

        /// Opens (creating, 0600) and exclusively locks `path` with flock, waiting for another holder;
        /// returns the descriptor for ``unlock(_:)``.
        static func lock(_ path: String) throws(TLSSetupError) -> Int32 {
            do {
                return try System.lockFile(path, mode: 0o600)
            } catch {
                throw TLSSetupError(file: path, error.reason)
            }
        }

        static func unlock(_ fd: Int32) {
            System.unlockFile(fd)
        }

        static func exists(_ path: String) -> Bool { System.fileExists(path) }

        /// `path` made absolute against the current folder, for messages a user copies.
        static func absolute(_ path: String) -> String {
            if path.hasPrefix("/") { return path }
            guard let base = System.currentDirectory() else { return path }
            let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            return relative.isEmpty || relative == "." ? base : base + "/" + relative
        }
    }
#endif
