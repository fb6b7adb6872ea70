import SKANDomain
import SKANFiles
import SKANMock
import SystemPOSIX

/// Where `record` may write its replay file. It never writes over the journal it reads (a
/// journal given as `--out` once became a replay file, its entries lost), and replaces an existing
/// file only when that file is a replay file (recording again) or the user said `--force`.
enum ReplayDestination {
    /// Why `out` may not be written, or nil when it may.
    static func refusal(out: String, journal: String, force: Bool) -> String? {
        guard System.fileExists(out) else { return nil }
        if let written = System.fileSignature(out), let read = System.fileSignature(journal),
            written.device == read.device && written.inode == read.inode
        {
            return "--out \(out) is the journal given as input; give another file"
        }
        if force { return nil }
        if System.isDirectory(out) { return "--out \(out) is a folder; give a file" }
        guard let bytes = try? FileBytes.read(out), (try? ReplayFile.parse(bytes: bytes, source: out)) != nil else {
            return "--out \(out) exists and is not a replay file; give --force to replace it"
        }
        return nil
    }

    /// Writes `bytes` to a temporary file next to `out` and renames it over `out`: an interrupted
    /// run leaves the old file or the new one, never half of one.
    static func write(_ bytes: [UInt8], to out: String) throws(SystemError) {
        try System.writeFileAtomically(out, bytes, mode: 0o644)
    }
}
