#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file opened to be read in chunks, for inputs too large to hold whole (a journal of
/// millions of lines). Opened without waiting and checked with `fstat` first, as
/// `System.readRegularFile` does: a FIFO would block the reader and `/dev/zero` never ends.
/// One owner reads it, start to end, and calls `close` once.
public struct ReadableFile: Sendable {
    public let descriptor: Int32
    /// The size when it was opened (a file still being written may grow).
    public let size: Int64

    /// Opens `path`; refuses another kind of file, or a regular file larger than `limit` bytes.
    public init(path: String, limit: Int64 = .max) throws(WholeFileError) {
        let fd: Int32
        do {
            fd = try System.openForReadingWithoutWaiting(path)
        } catch {
            throw .system(error)
        }
        guard let (kind, size) = System.fileKind(fd) else {
            let failure = SystemError(code: errno, function: "fstat")
            System.close(fd)
            throw .system(failure)
        }
        guard kind == .regular else {
            System.close(fd)
            throw .notRegular(kind)
        }
        guard size <= limit else {
            System.close(fd)
            throw .tooLarge(bytes: size)
        }
        descriptor = fd
        self.size = size
    }

    /// Appends up to `count` more bytes to `buffer`; returns how many (0 at the end).
    public func read(appendingTo buffer: inout [UInt8], count: Int) throws(SystemError) -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let fd = descriptor
        let result = buffer.withUnsafeMutableBytes { bytes -> Result<IOResult<Int>, SystemError> in
            do throws(SystemError) {
                return .success(try System.read(fd, bytes.baseAddress! + start, count))
            } catch {
                return .failure(error)
            }
        }
        var got = 0
        if case .success(.done(let n)) = result { got = n }
        buffer.removeLast(count - got)
        switch result {
        case .failure(let failure): throw failure
        case .success(.wouldBlock): throw SystemError(code: EAGAIN, function: "read")
        case .success(.done): return got
        }
    }

    public func close() {
        System.close(descriptor)
    }
}
