import SystemPOSIX

/// Reads whole files (model, replay, scenario and CA files) without pulling Foundation into the
/// server. Only regular files are read, and only up to a limit: a FIFO would hang the reader and
/// `/dev/zero` would fill the memory, and a file past the limit is refused before a byte of it
/// is parsed.
public enum FileBytes {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// 64 MiB: far above any model or replay file a person writes or records for a test run
    /// (a recording of 100,000 answers is about 30 MB), far below what parsing could not hold.
    public static let defaultLimit = 64 << 20

    /// 1 GiB, for journal files: read as a stream, so the limit bounds time, not memory.
    public static let journalLimit = 1 << 30

    /// The bytes of the regular file at `path`, refused when it is larger than `limit` bytes.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(Failure) -> [UInt8] {
        do {
            return try System.readRegularFile(path, limit: limit)
        } catch {
            throw failure(path, error, limit: limit)
        }
    }

    /// Why the file at `path` could not be opened or read, in words.
    static func failure(_ path: String, _ error: WholeFileError, limit: Int) -> Failure {
        switch error {
        case .system(let failure): Failure(path: path, reason: failure.reason)
        case .notRegular(let kind): Failure(path: path, reason: "\(kind), not a regular file; give a file")
        case .tooLarge(let size): tooLarge(path, size: size, limit: limit)
        }
    }

    static func tooLarge(_ path: String, size: Int64?, limit: Int) -> Failure {
        let actual = size.map { " (\(byteText(Int($0))))" } ?? ""
        return Failure(path: path, reason: "larger than the limit of \(byteText(limit)) for this file\(actual)")
    }

    /// `64 MiB`, `1 GiB`, `512 KiB`, or bytes.
    public static func byteText(_ count: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where count >= 1 << shift {
            let whole = count >> shift
            if whole << shift == count { return "\(whole) \(unit)" }
            let tenths = ((count * 10) >> shift) % 10
            return "\(whole).\(tenths) \(unit)"
        }
        return "\(count) bytes"
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
