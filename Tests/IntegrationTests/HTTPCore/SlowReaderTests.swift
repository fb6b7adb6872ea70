import Dispatch
import Foundation
import SystemPOSIX
import Testing

@testable import HTTPCore

/// What waits for a client that does not read is bounded, per connection and in total (issue
/// 43.10). Measured with the server's own counters (`readAheadHighWaterBytes`,
/// `heldOutputHighWaterBytes`) under small configured limits, not with gigabytes.
@Suite("Slow readers")
struct SlowReaderTests {
    /// `/hold` answers once `release` is signalled (at most 5 s); `/hello` at once; `/kb` 64 KiB.
    private func router(_ release: DispatchSemaphore) -> HTTPRouter {
        var router = HTTPRouter()
        router.on(.get, "/hold") { _, _, writer in
            DispatchQueue.global().async {
                _ = release.wait(timeout: .now() + 5)
                writer.send(.json("{\"held\":true}"))
            }
        }
        router.on(.get, "/hello") { _, _, writer in writer.send(.json("{\"hello\":\"world\"}")) }
        router.on(.get, "/kb") { _, _, writer in
            writer.send(HTTPResponse(body: [UInt8](repeating: UInt8(ascii: "k"), count: 64 * 1024)))
        }
        return router
    }

    /// Sends `request` over and over without reading, until the server stops taking them (a send
    /// waits 0.2 s in vain) or `limit` bytes went out.
    private func pipeline(_ request: String, on connection: RawConnection, upTo limit: Int) -> Int {
        let batch = Array(String(repeating: request, count: 64).utf8)
        var sent = 0
        while sent < limit {
            var offset = 0
            while offset < batch.count {
                let result = batch.withUnsafeBytes {
                    try? System.send(connection.fd, $0.baseAddress! + offset, batch.count - offset)
                }
                guard case .done(let written)? = result, written > 0 else { return sent + offset }
                offset += written
            }
            sent += batch.count
        }
        return sent
    }

    /// Requests waiting in the socket while one is answered used to be read all at once when it
    /// was (every full read led to another): the parser held whatever the client had sent. Now a
    /// connection reads ahead one request's worth, and the rest when those are served.
    @Test func pipelinedRequestsAreReadAheadWithinALimit() throws {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 1024
        limits.maxHeaderBytes = 1024
        limits.maxBodyBytes = 1024
        let release = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer(limits: limits, responder: router(release))
        let client = try RawConnection(port: server.port, receiveTimeout: 0.2)
        client.setSmallReceiveBuffer()
        client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        let sent = pipeline("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", on: client, upTo: 4 << 20)
        #expect(sent > 2 * limits.maxReadAheadBytes, "the kernel took only \(sent) bytes")
        release.signal()
        for _ in 0..<500 where server.server.readAheadHighWaterBytes == 0 { usleep(10_000) }
        let held = server.server.readAheadHighWaterBytes
        #expect(held > 0)
        #expect(held <= limits.maxReadAheadBytes + 16 * 1024, "one connection held \(held) bytes of requests")
        // Reading the answers gets every one, in order.
        #expect(System.waitReadable(client.fd, milliseconds: 5_000))
        let answers = client.readResponses(3)
        #expect(answers.first?.hasSuffix("{\"held\":true}") == true)
        #expect(answers.dropFirst().allSatisfy { $0.hasSuffix("{\"hello\":\"world\"}") })
    }

    /// A round of pipelined requests stops at the connection's output limit; when the socket took
    /// all of it at once, the requests still buffered used to wait for an event that never came
    /// (then a 408 at the header timeout). Now the next round starts at once.
    @Test func pipelinedAnswersPastTheOutputLimitAllArrive() throws {
        var limits = HTTPLimits()
        limits.maxPendingOutputBytes = 256 * 1024
        let server = try TestHTTPServer(limits: limits, responder: router(DispatchSemaphore(value: 0)))
        let client = try RawConnection(port: server.port)
        client.send(String(repeating: "GET /kb HTTP/1.1\r\nHost: x\r\n\r\n", count: 40))
        let answers = client.readResponses(40)
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK") })
    }

    /// Three clients that ask for 64 KiB answers and never read them: each connection would hold
    /// up to its own limit (512 KiB here); together they stay within the server's total (256 KiB)
    /// plus one round (64 KiB and an answer) per connection.
    @Test func slowReadersTogetherStayWithinTheServersTotal() throws {
        var limits = HTTPLimits()
        limits.maxPendingOutputBytes = 512 * 1024
        limits.maxHeldOutputBytes = 256 * 1024
        let server = try TestHTTPServer(limits: limits, responder: router(DispatchSemaphore(value: 0)))
        let bound = limits.maxHeldOutputBytes + 3 * (64 * 1024 + 64 * 1024 + 1024)
        var clients: [RawConnection] = []
        for _ in 0..<3 {
            let client = try RawConnection(port: server.port, receiveTimeout: 0.2)
            client.setSmallReceiveBuffer()
            // 300 answers of 64 KiB: far more than the kernel's buffers take.
            _ = pipeline("GET /kb HTTP/1.1\r\nHost: x\r\n\r\n", on: client, upTo: 300 * 30)
            clients.append(client)
        }
        // The server writes what it can and stops; give it a bounded while to go past the bound.
        for _ in 0..<200 where server.server.heldOutputHighWaterBytes <= bound { usleep(10_000) }
        let most = server.server.heldOutputHighWaterBytes
        #expect(most > limits.maxHeldOutputBytes, "the clients never backed the server up (\(most) bytes)")
        #expect(most <= bound, "the connections held \(most) bytes for clients that do not read")
        // Clients that leave give it all back.
        clients.removeAll()
        for _ in 0..<500 where server.server.heldOutputBytes > 0 { usleep(10_000) }
        #expect(server.server.heldOutputBytes == 0)
        #expect(try CurlClient().get(server.url("/hello")).status == 200)
    }
}
