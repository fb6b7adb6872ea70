import SKANMock
import SystemPOSIX

/// `--pid-file`: the server's process id, written once it listens and removed when it stops, so a
/// script (the Xcode pre-action) stops the server it started, and only that one, instead of
/// `pkill`, which would stop every skan-mock on the machine (another project's too).
///
/// The server holds a lock on the file for its life (`fcntl`; the kernel lets go however the
/// process ends). So the lock, not the number in the file, says whether a server owns it: a file no
/// one holds is stale, whatever process its number names by now (another program, or 1), and is
/// taken over; a file a server holds is refused, naming that server. The file is written in place,
/// never renamed over, so the lock stays on it, and removed at the stop only while it is still the
/// file this server holds and names this server.
struct PidFile: Sendable {
    let path: String
    /// The open, locked file: closing it would let go of the lock, so it stays open.
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the file's lock, or refuses a file another server holds. A symbolic link at `path`,
    /// or a file with more than one name (a hard link), is refused: the server would write the
    /// file they name.
    static func claim(_ path: String) throws(SKANMockServer.StartupError) -> PidFile {
        let fd: Int32
        do {
            fd = try System.openForLocking(path, mode: 0o644)
        } catch {
            throw SKANMockServer.StartupError(
                .listeners,
                error.isSymbolicLink
                    ? "--pid-file \(path) is a symbolic link: give the path of a file itself (the server would write the file the link names)"
                    : "--pid-file \(path): cannot open it: \(error.reason)")
        }
        guard System.isRegularFile(fd) else {
            System.close(fd)
            throw SKANMockServer.StartupError(.listeners, "--pid-file \(path) is not a regular file: give another path")
        }
        // A hard link's target is written in place (the pid replaces what it held), as a symbolic
        // link's would be: a file with another name is not this server's to write.
        if let links = System.linkCount(fd), links > 1 {
            System.close(fd)
            throw SKANMockServer.StartupError(
                .listeners,
                "--pid-file \(path) has \(links) names (hard links): give the path of a file of its own (the server would write the file the other names share)"
            )
        }
        let lock: RecordLock
        do {
            lock = try System.lockRecord(fd)
        } catch {
            System.close(fd)
            throw SKANMockServer.StartupError(.listeners, "--pid-file \(path): cannot lock it: \(error.reason)")
        }
        if case .heldBy(let pid) = lock {
            System.close(fd)
            throw SKANMockServer.StartupError(
                .listeners,
                "--pid-file \(path) names process \(pid), which is still running (a skan-mock holds the file): stop it first (kill \(pid)), or give another file"
            )
        }
        return PidFile(path: path, descriptor: fd)
    }

    private var contents: [UInt8] { Array("\(System.processID())\n".utf8) }

    /// Writes this process's id (call once the server listens).
    func write() throws(SKANMockServer.StartupError) {
        if let error = System.replaceContents(descriptor, contents) {
            throw SKANMockServer.StartupError(.listeners, "--pid-file \(path): cannot write it: \(error.reason)")
        }
    }

    /// After a start that failed: removes the file if this server made it (it is still the file
    /// it holds, and empty); a stale file that was there is left as it was.
    func abandon() {
        if System.isSameFile(descriptor, path), System.contents(descriptor, limit: 1) == [] {
            System.removeFile(path)
        }
    }

    /// Removes the file if it is still the one this server holds and names this server: a file
    /// put in its place meanwhile (another server's) is left alone.
    func remove() {
        if System.isSameFile(descriptor, path), System.contents(descriptor, limit: 64) == contents {
            System.removeFile(path)
        }
    }
}
