import SystemPOSIX

/// A plain TCP connection for the cases no well-behaved client will produce: malformed bytes,
/// trickled headers, abandoned requests. Reads are bounded by a receive timeout, never open-ended.
final class RawConnection: Sendable {
    let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int, host: String = "127.0.0.1", receiveTimeout: Double = 5) throws {
        TestDescriptorLimit.ensure()
        do {
            fd = try System.connect(host: host, port: port, timeout: receiveTimeout)
        } catch {
            throw Failure(description: "connect failed: \(error)")
        }
    }

    deinit { System.close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { try? System.send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard case .done(let written) = result, written > 0 else { return }
            offset += written
        }
    }

    /// Reads until what arrived contains `marker` (or the server closes, or the receive timeout
    /// passes); returns all that arrived.
    func read(until marker: String, after earlier: String = "") -> String {
        var text = earlier
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !text.contains(marker) {
            let count = receive(into: &chunk)
            guard count > 0 else { break }
            text += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        return text
    }

    /// Shrinks the receive buffer, so a reader that stops reading backs up the server quickly.
    func setSmallReceiveBuffer() {
        System.setReceiveBufferSize(fd, bytes: 4096)
    }

    /// Reads until the server closes the connection (or the receive timeout passes).
    func readToEnd() -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            do {
                switch try System.read(fd, &chunk, chunk.count) {
                case .done(let count) where count > 0: bytes.append(contentsOf: chunk[0..<count])
                case .done: return (String(decoding: bytes, as: UTF8.self), true)
                case .wouldBlock: return (String(decoding: bytes, as: UTF8.self), false)
                }
            } catch {
                // A reset is the server closing too (it dropped the connection with data unread).
                return (String(decoding: bytes, as: UTF8.self), error.isConnectionReset)
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
            let read = receive(into: &chunk)
            if read <= 0 { return responses }
            buffer.append(contentsOf: chunk[0..<read])
        }
    }

    /// One read: the byte count, 0 at the end of input, -1 on a timeout or an error.
    private func receive(into chunk: inout [UInt8]) -> Int {
        let result = chunk.withUnsafeMutableBytes { try? System.read(fd, $0.baseAddress!, $0.count) }
        switch result {
        case .done(let count): return count
        case .wouldBlock, nil: return -1
        }
    }

    /// Splits complete `Content-Length`-framed responses off the front of `bytes`.
    static func split(_ bytes: [UInt8]) -> [String] {
        var responses: [String] = []
        var start = 0
        let terminator: [UInt8] = [13, 10, 13, 10]
        while let headEnd = firstIndex(of: terminator, in: bytes, from: start) {
            let head = String(decoding: bytes[start..<headEnd], as: UTF8.self)
            let length =
                head.split(separator: "\r\n")
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
