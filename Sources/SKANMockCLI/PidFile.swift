import SKANFiles
import SKANMock
import SystemPOSIX

/// `--pid-file`: the server's process id, written once it listens and removed when it stops, so a
/// script (the Xcode pre-action) stops the server it started, and only that one, instead of
/// `pkill`, which would stop every skan-mock on the machine (another project's too).
struct PidFile: Sendable {
    let path: String

    /// Refuses a file that names a process still running (the server of an earlier run that was
    /// not stopped, or another one using the same file); a file left by a process that is gone is
    /// taken over.
    static func claim(_ path: String) throws(SKANMockServer.StartupError) -> PidFile {
        if let bytes = try? FileBytes.read(path, limit: 64),
            let pid = Int32(String(decoding: bytes.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)),
            pid != System.processID(), System.processExists(pid)
        {
            throw SKANMockServer.StartupError(
                .listeners,
                "--pid-file \(path) names process \(pid), which is still running: stop it first (kill \(pid)), or give another file"
            )
        }
        return PidFile(path: path)
    }

    /// Writes this process's id (call once the server listens).
    func write() throws(SKANMockServer.StartupError) {
        do {
            try System.writeFileAtomically(path, Array("\(System.processID())\n".utf8), mode: 0o644)
        } catch {
            throw SKANMockServer.StartupError(.listeners, "--pid-file \(path): cannot write it: \(error)")
        }
    }

    func remove() {
        System.removeFile(path)
    }
}
