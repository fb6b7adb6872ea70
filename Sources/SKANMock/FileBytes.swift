import SystemPOSIX

/// Reads whole files (model files are small) without pulling Foundation into the server.
public enum FileBytes {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public static func read(_ path: String) throws(Failure) -> [UInt8] {
        do {
            return try System.readFile(path)
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
    }
}

extension FileBytes {
    /// Writes `bytes` to `path`, replacing it (reports such as JUnit XML).
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        do {
            try System.writeFile(path, bytes)
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
    }
}
