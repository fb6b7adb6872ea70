import SystemPOSIX

/// A minimal blocking HTTP/1.1 GET over one connection, for health checks from the command line
/// (a container image should not need curl). Reads until the server closes; bounded by `timeout`.
public enum HTTPProbe {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func get(
        host: String, port: Int, path: String, headers: [(String, String)] = [], timeout: Double = 3
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        let fd: Int32
        do {
            fd = try System.connect(host: host, port: port, timeout: timeout)
        } catch {
            switch error.domain {
            case .addressInfo: throw Failure(description: "cannot resolve \(host)")
            case .errno where error.function.description == "socket":
                throw Failure(description: "socket: \(error.reason)")
            case .errno: throw Failure(description: "cannot connect to \(host):\(port): \(error.reason)")
            }
        }
        defer { System.close(fd) }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { raw -> Bool in
            guard case .done(let count)? = try? System.send(fd, raw.baseAddress!, raw.count) else { return false }
            return count == raw.count
        }
        guard sent else { throw Failure(description: "cannot send the request") }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { raw in try? System.read(fd, raw.baseAddress!, raw.count) }
            guard case .done(let count)? = result else { throw Failure(description: "no answer within \(timeout) s") }
            if count == 0 { break }
            received.append(contentsOf: chunk[0..<count])
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
