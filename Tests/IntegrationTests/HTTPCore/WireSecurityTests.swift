import Foundation
import SystemPOSIX
import Testing

@testable import HTTPCore

/// The HTTPS path of the connection without OpenSSL: a toy wire protocol (a one-byte hello, then
/// every byte XOR 0x5A) stands in for TLS, so what the connection does around any session is
/// tested here: the same parser and answers, the version on the request, plaintext refused, and a
/// stalled handshake closed within the header timeout while others are served.
@Suite("Connections with a wire session over real sockets")
struct WireSecurityTests {
    final class ToySession: HTTPWireSession {
        private var greeted = false
        private var output: [UInt8] = []

        func receive(_ wire: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> HTTPWireStatus {
            var bytes = wire[...]
            if !greeted {
                guard let first = bytes.first else { return .ok }
                guard first == 0x16 else { return .notThisProtocol }
                greeted = true
                output.append(0x16)
                bytes = bytes.dropFirst()
            }
            plaintext.append(contentsOf: bytes.map { $0 ^ 0x5A })
            return .ok
        }

        func send(_ plaintext: UnsafeRawBufferPointer, into wire: inout [UInt8]) -> Bool {
            wire.append(contentsOf: plaintext.map { $0 ^ 0x5A })
            return true
        }

        func takeOutput(into wire: inout [UInt8]) {
            wire += output
            output = []
        }

        var protocolVersion: String? { greeted ? "TOYv1" : nil }
    }

    struct ToySecurity: HTTPWireSecurity {
        func makeSession() -> (any HTTPWireSession)? { ToySession() }
        var plaintextRefusal: String { "this port speaks TOY" }
    }

    private func server(headerTimeout: Double = 10) throws -> TestHTTPServer {
        var router = HTTPRouter()
        router.on(.get, "/who") { request, _, writer in
            writer.send(HTTPResponse(body: Array("tls=\(request.tlsVersion ?? "none")".utf8)))
        }
        var limits = HTTPLimits()
        limits.headerTimeoutSeconds = headerTimeout
        return try TestHTTPServer(limits: limits, responder: router, security: ToySecurity())
    }

    private func xor(_ text: String) -> [UInt8] { Array(text.utf8).map { $0 ^ 0x5A } }

    @Test func requestsAndAnswersGoThroughTheSession() throws {
        let test = try server()
        let client = try RawConnection(port: test.port)
        client.send(
            [0x16]
                + xor("GET /who HTTP/1.1\r\nHost: x\r\n\r\nGET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        let (raw, closed) = client.readToEnd()
        let bytes = Array(raw.utf8)
        #expect(bytes.first == 0x16)
        let text = String(decoding: bytes.dropFirst().map { $0 ^ 0x5A }, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.components(separatedBy: "tls=TOYv1").count == 3)
        #expect(closed)
    }

    /// A security that cannot make a session (TLS out of memory): fail closed.
    struct BrokenSecurity: HTTPWireSecurity {
        func makeSession() -> (any HTTPWireSession)? { nil }
        var plaintextRefusal: String { "this port speaks TOY" }
    }

    /// When no session can be made, the connection is closed unanswered and the reason is told to
    /// the application (each time, new once), never served as plain HTTP on the HTTPS port.
    @Test func aConnectionWithoutASessionIsClosedNotServedInPlaintext() throws {
        TestDescriptorLimit.ensure()
        var router = HTTPRouter()
        router.on(.get, "/who") { _, _, writer in writer.send(HTTPResponse(body: Array("served".utf8))) }
        let told = Mutex<[(String, Bool)]>([])
        let toldOnce = DispatchSemaphore(value: 0)
        var configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, limits: HTTPLimits(), security: BrokenSecurity())
        configuration.setupFailureObserver = { reason, isNew in
            told.withLock { $0.append((reason, isNew)) }
            toldOnce.signal()
        }
        let server = HTTPServer(configuration: configuration, responder: router)
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        for _ in 0..<2 {
            let client = try RawConnection(port: server.port, receiveTimeout: 2)
            client.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n")
            let (text, closed) = client.readToEnd()
            #expect(text.isEmpty && closed)
        }
        for _ in 0..<2 { #expect(toldOnce.wait(timeout: .now() + 5) == .success) }
        let calls = told.withLock { $0 }
        #expect(calls.map(\.1) == [true, false])
        #expect(calls.first?.0.contains("TLS session could not be created") == true)
        #expect(server.connectionSetupFailures.count == 2)
    }

    @Test func plainHTTPIsRefusedInPlaintextAndClosed() throws {
        let test = try server()
        let client = try RawConnection(port: test.port, receiveTimeout: 2)
        let started = Date()
        client.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n")
        let (text, closed) = client.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(text.hasSuffix("this port speaks TOY\n"))
        #expect(closed && Date().timeIntervalSince(started) < 1.5)
    }

    @Test func aStalledHandshakeIsClosedWithinTheHeaderTimeoutWhileOthersAreServed() throws {
        let test = try server(headerTimeout: 1)
        let started = Date()
        let stalled = try RawConnection(port: test.port, receiveTimeout: 5)
        stalled.send([0x16])  // hello, then nothing: the handshake never brings a request
        let halfHead = try RawConnection(port: test.port, receiveTimeout: 5)
        halfHead.send([0x16] + xor("GET /who HT"))  // a request begun, never ended
        let other = try RawConnection(port: test.port)
        other.send([0x16] + xor("GET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(
            String(decoding: Array(other.readToEnd().text.utf8).dropFirst().map { $0 ^ 0x5A }, as: UTF8.self).contains(
                "tls=TOYv1"))
        // A handshake trickled byte by byte meets the same deadline: `HTTPConnectionTests`, on a
        // hand-moved clock.
        let stalledEnd = stalled.readToEnd()
        let halfHeadEnd = halfHead.readToEnd()
        #expect(stalledEnd.closed && halfHeadEnd.closed)
        #expect(Date().timeIntervalSince(started) < 4)
    }
}
