import Foundation
import SystemPOSIX

/// A loopback server that answers one connection badly, for clients that must give up: after the
/// request it sends an answer's head, then drips a byte at a time or pours bytes without end. Every
/// wait is bounded (`drip` and `pour` stop by themselves), so a client that never gives up makes its
/// test fail, not hang.
final class MisbehavingServer: Sendable {
    enum Behaviour: Sendable {
        /// One body byte every `interval` seconds, for `seconds`, then a close.
        case drip(interval: Double, seconds: Double)
        /// `bytes` of body as fast as the client takes them, then a close.
        case pour(bytes: Int)
    }

    let port: Int
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)

    init(_ behaviour: Behaviour) throws {
        listener = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
        port = System.localPort(listener)
        let listener = listener
        let done = done
        Thread.detachNewThread {
            defer { done.signal() }
            guard System.waitReadable(listener, milliseconds: 10_000),
                case .done(let client)? = try? System.accept(listener)
            else { return }
            defer { System.close(client.fd) }
            // The request: whatever came within a second.
            _ = System.waitReadable(client.fd, milliseconds: 1_000)
            var scratch = [UInt8](repeating: 0, count: 4096)
            _ = scratch.withUnsafeMutableBytes { try? System.read(client.fd, $0.baseAddress!, $0.count) }
            Self.send(client.fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{".utf8), until: 5)
            switch behaviour {
            case .drip(let interval, let seconds):
                let end = Date().addingTimeInterval(seconds)
                while Date() < end {
                    guard Self.send(client.fd, [UInt8(ascii: " ")], until: 1) else { return }
                    System.sleep(microseconds: UInt32(interval * 1e6))
                }
            case .pour(let bytes):
                let block = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
                var sent = 0
                while sent < bytes {
                    guard Self.send(client.fd, block, until: 5) else { return }
                    sent += block.count
                }
            }
        }
    }

    /// Sends all of `bytes` within `seconds`; false when the client left or stopped reading.
    @discardableResult
    private static func send(_ fd: Int32, _ bytes: [UInt8], until seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var offset = 0
        while offset < bytes.count {
            switch bytes.withUnsafeBytes({ try? System.send(fd, $0.baseAddress! + offset, bytes.count - offset) }) {
            case .done(let written)?: offset += written
            case .wouldBlock?:
                guard Date() < end else { return false }
                System.sleep(microseconds: 1_000)
            case nil: return false
            }
        }
        return true
    }

    /// Waits (at most 20 s) for the exchange to end, then stops listening.
    deinit {
        _ = done.wait(timeout: .now() + 20)
        System.close(listener)
    }
}
