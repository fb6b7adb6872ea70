#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection for the cases no well-behaved client will produce: malformed bytes,
/// trickled headers, abandoned requests. Reads are bounded by a receive timeout, never open-ended.
final class RawConnection: Sendable {
    let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int, host: String = "127.0.0.1", receiveTimeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads until what arrived contains `marker` (or the server closes, or the receive timeout
    /// passes); returns all that arrived.
    func read(until marker: String, after earlier: String = "") -> String {
        var text = earlier
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !text.contains(marker) {
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            text += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        return text
    }

    /// Shrinks the receive buffer, so a reader that stops reading backs up the server quickly.
    func setSmallReceiveBuffer() {
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads until the server closes the connection (or the receive timeout passes).
    func readToEnd() -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else {
                return (String(decoding: bytes, as: UTF8.self), count == 0 || errno == ECONNRESET)
            }
        }
    }

    /// Reads until `count` complete responses (by Content-Length) have arrived.
    func readResponses(_ count: Int) -> [String] {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let responses = Self.split(buffer)
            if responses.count >= count { return responses }
            let read = Glibc.read(fd, &chunk, chunk.count)
            if read <= 0 { return responses }
            buffer.append(contentsOf: chunk[0..<read])
        }
    }

    /// Splits complete `Content-Length`-framed responses off the front of `bytes`.
    static func split(_ bytes: [UInt8]) -> [String] {
        var responses: [String] = []
        var start = 0
        let terminator: [UInt8] = [13, 10, 13, 10]
        while let headEnd = firstIndex(of: terminator, in: bytes, from: start) {
            let head = String(decoding: bytes[start..<headEnd], as: UTF8.self)
            let length = head.split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: " ")) } ?? 0
            let end = headEnd + 4 + length
            guard end <= bytes.count else { break }
            responses.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        return responses
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
