#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 GET over one connection, for health checks from the command line
/// (a container image should not need curl). Reads until the server closes; bounded by `timeout`.
public enum HTTPProbe {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func get(
        host: String, port: Int, path: String, headers: [(String, String)] = [], timeout: Double = 3
    ) throws(Failure) -> (status: Int, body: [UInt8]) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(description: "socket: \(Socket.errorText(errno))") }
        defer { close(fd) }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            throw Failure(description: "cannot connect to \(host):\(port): \(Socket.errorText(errno))")
        }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw Failure(description: "cannot send the request")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 { received.append(contentsOf: chunk[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw Failure(description: "no answer within \(timeout) s") }
            break
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
