import ArgumentParser
import SKANDomain
import SKANFiles
import SKANReport
import SystemPOSIX

/// What `check` is given, told apart by content rather than by name, so `check` takes a HAR or
/// an Info.plist alike: a folder is an app bundle (`Foo.app/Info.plist`, or a macOS bundle's
/// `Contents/Info.plist`), a file starting `bplist00`, `<?xml`, `<!DOCTYPE` or `<plist` (or named
/// `*.plist`) a property list, anything else a HAR capture (JSON).
enum InfoPlistInput {
    /// The property list `path` names (the bundle's Info.plist for a folder), or nil for a capture.
    static func plistPath(_ path: String) throws -> String? {
        if System.isDirectory(path) {
            for candidate in [path + "/Info.plist", path + "/Contents/Info.plist"] where !System.isDirectory(candidate)
            {
                if (try? JournalFile(path: candidate)) != nil { return candidate }
            }
            StandardStreams.error(
                "skan-mock check: \(path): a folder without an Info.plist (looked for \(path)/Info.plist and \(path)/Contents/Info.plist); give an app bundle, an Info.plist or a HAR capture"
            )
            throw ExitCode(2)
        }
        if path.lowercased().hasSuffix(".plist") { return path }
        // The first bytes say which; a file that cannot be opened is left to the capture reader's message.
        guard let file = try? JournalFile(path: path) else { return nil }
        var head: [UInt8] = []
        while head.count < 64, let read = try? file.read(appendingTo: &head, count: 64 - head.count), read > 0 {}
        return PropertyList.format(of: head) == nil ? nil : path
    }

    /// Reads and checks the property list at `path`; exits 2 when it cannot be read or is none.
    static func report(_ path: String) throws -> InfoPlistReport {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            StandardStreams.error("skan-mock check: cannot read \(error.description)")
            throw ExitCode(2)
        }
        do {
            let plist = try PropertyList.read(bytes)
            return InfoPlistReport(
                file: path, format: PropertyList.format(of: bytes) ?? .xml, check: InfoPlistCheck(plist))
        } catch {
            StandardStreams.error("skan-mock check: \(path): \(error.description)")
            throw ExitCode(2)
        }
    }
}
