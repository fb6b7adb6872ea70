import Foundation
import SystemPOSIX

/// A loopback receiver that keeps every byte each connection sent, for tests of what a client
/// wrote on the wire: it answers `200 ok` after the request's head (and body, by Content-Length),
/// or, `silent`, never answers and holds the connection until the client leaves. It accepts
/// connections for `seconds` at most and stops by itself.
final class CapturingReceiver: Sendable {
    let port: Int
    let host: String
    private let captured = Mutex<[[UInt8]]>([])
    /// Set when the test is done with it: the accepting thread then closes the listener itself,
    /// so the descriptor is never closed under it (a reused number would be another test's socket).
    private let finished = Mutex(false)

    /// nil when `host` cannot be listened on here (no IPv6 loopback, say).
    init?(host: String = "127.0.0.1", silent: Bool = false, seconds: Double = 15) {
        guard let listener = try? System.listen(host: host, port: 0, backlog: 64) else { return nil }
        self.host = host
        port = System.localPort(listener)
        let (captured, finished) = (captured, finished)
        Thread.detachNewThread {
            defer { System.close(listener) }
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !finished.withLock({ $0 }) {
                guard System.waitReadable(listener, milliseconds: 50) else { continue }
                guard case .done(let client)? = try? System.accept(listener) else { continue }
                let index = captured.withLock { list -> Int in
                    list.append([])
                    return list.count - 1
                }
                Thread.detachNewThread {
                    defer { System.close(client.fd) }
                    var scratch = [UInt8](repeating: 0, count: 64 * 1024)
                    while Date() < end, !finished.withLock({ $0 }) {
                        guard System.waitReadable(client.fd, milliseconds: 100) else { continue }
                        guard
                            case .done(let count)? = scratch.withUnsafeMutableBytes({
                                try? System.read(client.fd, $0.baseAddress!, $0.count)
                            }), count > 0
                        else { return }
                        let whole = captured.withLock { list -> [UInt8] in
                            list[index] += scratch[0..<count]
                            return list[index]
                        }
                        if !silent && Self.isComplete(whole) {
                            let answer = Array(
                                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
                            _ = answer.withUnsafeBytes { try? System.send(client.fd, $0.baseAddress!, $0.count) }
                            return
                        }
                    }
                }
            }
        }
    }

    deinit {
        finished.withLock { $0 = true }
    }

    /// What each connection sent so far, as text.
    var requests: [String] { captured.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }

    var url: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    /// A head ended by a blank line and as much body as its Content-Length says.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) >= length
    }
}
