import Dispatch
import SystemPOSIX

/// A minimal blocking HTTP/1.1 GET (or POST) over one connection, for health checks from the command line
/// (a container image should not need curl). Reads until the server closes, within `timeout` for
/// the whole exchange and `maxBytes` of answer: a timeout per read let an answer dripping a byte
/// at a time hold the Docker HEALTHCHECK forever, and an endless one was buffered to 4 GiB.
public enum HTTPProbe {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The largest answer read (head and body): a health answer or a SKAN answer is well under
    /// a kilobyte.
    public static let defaultMaxBytes = 1 << 20

    public static func get(
        host: String, port: Int, path: String, headers: [(String, String)] = [], timeout: Double = 3,
        maxBytes: Int = defaultMaxBytes
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        try exchange(
            "GET", host: host, port: port, path: path, headers: headers, body: nil, timeout: timeout, maxBytes: maxBytes
        )
    }

    /// A POST of `body` (with its `Content-Length`), as blocking and as bounded as `get`: the
    /// admin API sends postbacks with it (`POST /__admin/devices/{id}/postbacks/send`).
    /// `admit` sees the numeric address `host` resolved to, before connecting to it, and returns
    /// why it must not be reached, or nil (the sender refuses this server's own admin API).
    public static func post(
        host: String, port: Int, path: String, headers: [(String, String)] = [], body: [UInt8], timeout: Double = 3,
        maxBytes: Int = defaultMaxBytes, admit: (String) -> String? = { _ in nil }
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        try exchange(
            "POST", host: host, port: port, path: path, headers: headers, body: body, timeout: timeout,
            maxBytes: maxBytes, admit: admit)
    }

    /// The `Host` header's value: an IPv6 address in brackets (RFC 9110 7.2), else as given.
    static func hostHeader(host: String, port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// A request target (or, `spaceAllowed`, a header value) that could end its line early or
    /// split it: never written, whoever gave it. The parser's own grammar (`ASCII`) decides, so the
    /// client writes nothing the server would refuse to read.
    static func breaksTheLine(_ text: String, spaceAllowed: Bool) -> Bool {
        !text.utf8.allSatisfy(spaceAllowed ? ASCII.isFieldValueByte : ASCII.isTargetByte)
    }

    private static func exchange(
        _ method: String, host: String, port: Int, path: String, headers: [(String, String)], body: [UInt8]?,
        timeout: Double, maxBytes: Int, admit: (String) -> String? = { _ in nil }
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        guard timeout > 0, timeout.isFinite else { throw Failure(description: "the timeout must be positive") }
        guard path.hasPrefix("/"), !breaksTheLine(path, spaceAllowed: false), !breaksTheLine(host, spaceAllowed: false)
        else { throw Failure(description: "the target has a space or a control byte; nothing was sent") }
        for (name, value) in headers
        where name.isEmpty || !name.utf8.allSatisfy(ASCII.isToken) || breaksTheLine(value, spaceAllowed: true) {
            throw Failure(description: "header \(name) has a control byte; nothing was sent")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(min(timeout, 1e9) * 1e9)
        let fd: Int32
        var refusal: String?
        do {
            fd = try System.connect(host: host, port: port, timeout: timeout) { address in
                refusal = admit(address)
                return refusal == nil
            }
        } catch {
            if let refusal { throw Failure(description: refusal) }
            switch error.domain {
            case .addressInfo: throw Failure(description: "cannot resolve \(host)")
            case .errno where error.function.description == "socket":
                throw Failure(description: "socket: \(error.reason)")
            case .errno: throw Failure(description: "cannot connect to \(host):\(port): \(error.reason)")
            }
        }
        defer { System.close(fd) }
        var request =
            "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader(host: host, port: port))\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + (body ?? [])
        let sent = bytes.withUnsafeBytes { raw -> Bool in
            guard case .done(let count)? = try? System.send(fd, raw.baseAddress!, raw.count) else { return false }
            return count == raw.count
        }
        guard sent else { throw Failure(description: "cannot send the request") }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let late = Failure(description: "no complete answer within \(timeout) s")
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw late }
            let left = (deadline - now + 999_999) / 1_000_000
            guard System.waitReadable(fd, milliseconds: Int32(min(left, UInt64(Int32.max)))) else { throw late }
            let room = min(chunk.count, maxBytes + 1 - received.count)
            let result = chunk.withUnsafeMutableBytes { raw in try? System.read(fd, raw.baseAddress!, room) }
            guard case .done(let count)? = result else { throw late }
            if count == 0 { break }
            received.append(contentsOf: chunk[0..<count])
            if received.count > maxBytes {
                throw Failure(description: "the answer is larger than \(maxBytes) bytes; stopped reading it")
            }
        }
        guard received.count > 12, received.starts(with: "HTTP/1.".utf8),
            let status = Int(String(decoding: received[9..<12], as: UTF8.self))
        else { throw Failure(description: "not an HTTP response") }
        let separator: [UInt8] = [13, 10, 13, 10]
        var bodyStart = received.count
        if received.count >= 4 {
            for index in 0...(received.count - 4) where received[index..<(index + 4)].elementsEqual(separator) {
                bodyStart = index + 4
                break
            }
        }
        return (status, Array(received[bodyStart...]))
    }
}
