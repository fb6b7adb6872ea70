import SKANDomain
import SystemPOSIX

/// A journal file (`--log`) opened to be read as a stream: the file side of `JournalSource`, for
/// `--resume`, `report`, `record` and `compare`. Regular files only (a FIFO would hang the reader,
/// `/dev/zero` never ends), up to `FileBytes.journalLimit`; read in chunks, so its size costs time,
/// not memory.
public final class JournalFile: JournalSource {
    public let path: String
    private let file: ReadableFile

    /// The file's size when opened, for progress.
    public var size: Int64 { file.size }

    public init(path: String) throws(FileBytes.Failure) {
        self.path = path
        do {
            file = try ReadableFile(path: path, limit: Int64(FileBytes.journalLimit))
        } catch {
            throw FileBytes.failure(path, error, limit: FileBytes.journalLimit)
        }
    }

    deinit { file.close() }

    public func read(appendingTo buffer: inout [UInt8], count: Int) throws(JournalReadError) -> Int {
        do {
            return try file.read(appendingTo: &buffer, count: count)
        } catch {
            throw JournalReadError(.io, line: nil, reason: "cannot read \(path): \(error.reason)")
        }
    }

    /// A reader of the file at `path`.
    public static func reader(_ path: String) throws(FileBytes.Failure) -> JournalFileReader<JournalFile> {
        JournalFileReader(try JournalFile(path: path))
    }
}
