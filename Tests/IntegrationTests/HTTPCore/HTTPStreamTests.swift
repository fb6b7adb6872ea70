import Dispatch
import Foundation
import SystemPOSIX
import Testing

@testable import HTTPCore

/// Streamed answers (`HTTPResponseWriter.stream`) over real sockets: bytes written before and
/// after the head arrive in order, the body ends with the connection, the handler hears when the
/// client leaves, and a stopping server closes open streams instead of waiting for them.
@Suite("Streamed answers over real sockets")
struct HTTPStreamTests {
    final class Streams: Sendable {
        let open = Mutex<[HTTPStream]>([])
        let closed = Atomic<Int>(0)
        /// Signalled by each stream's close, for a test to wait on.
        let closing = DispatchSemaphore(value: 0)

        /// Waits (at most 10 s, a failure rather than a hang) for a stream to close.
        func waitForAClose() -> Bool { closing.wait(timeout: .now() + 10) == .success }
    }

    private func server(_ streams: Streams) throws -> TestHTTPServer {
        var router = HTTPRouter()
        router.on(.get, "/stream") { _, _, writer in
            var head = HTTPResponse()
            head.headers.set("Content-Type", "text/event-stream")
            let stream = writer.stream(head)
            stream.write(Array("first\n".utf8))  // may come before the connection took the stream
            stream.onClose {
                streams.closed.add(1, ordering: .relaxed)
                streams.closing.signal()
            }
            streams.open.withLock { $0.append(stream) }
        }
        router.on(.get, "/hello") { _, _, writer in writer.send(.json("{}")) }
        // Lines written from another thread while the connection takes the stream.
        router.on(.get, "/race") { _, _, writer in
            let stream = writer.stream(HTTPResponse())
            stream.write(Array("0\n".utf8))
            DispatchQueue.global().async {
                for n in 1...2_000 { stream.write(Array("\(n)\n".utf8)) }
                stream.close()
            }
        }
        return try TestHTTPServer(responder: router)
    }

    @Test func writesArriveInOrderAndTheBodyEndsWithTheConnection() throws {
        let streams = Streams()
        let test = try server(streams)
        let stream: HTTPStream
        do {
            let client = try RawConnection(port: test.port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = client.read(until: "first\n")
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.contains("Connection: close\r\n") && !head.contains("Content-Length"))
            stream = try #require(streams.open.withLock { $0.first })
            stream.write(Array("second\n".utf8))
            stream.write(Array("third\n".utf8))
            stream.close()
            let rest = client.readToEnd()
            #expect(rest.text == "second\nthird\n" && rest.closed)
        }  // the client closes its side: the connection is gone
        #expect(streams.waitForAClose())
        #expect(streams.closed.load(ordering: .relaxed) == 1)
        #expect(stream.pendingBytes == 0)
        // Other clients are served meanwhile and after.
        #expect(try CurlClient().get(test.url("/hello")).status == 200)
    }

    /// A write racing the connection taking the stream must not overtake the bytes written before
    /// (the console once saw entry 5 before entry 4 and lost 4 on reconnect).
    @Test func writesFromAnotherThreadKeepTheirOrderAcrossTheHandOver() throws {
        let test = try server(Streams())
        for _ in 0..<60 {
            let client = try RawConnection(port: test.port)
            client.send("GET /race HTTP/1.1\r\nHost: x\r\n\r\n")
            let text = client.readToEnd().text
            let body = try #require(text.range(of: "\r\n\r\n")).upperBound
            let lines = text[body...].split(separator: "\n").map { Int($0) ?? -1 }
            #expect(lines == Array(0...2_000))
        }
    }

    @Test func theHandlerHearsWhenTheClientLeaves() throws {
        let streams = Streams()
        let test = try server(streams)
        do {
            let client = try RawConnection(port: test.port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.read(until: "first\n")
        }  // closed here
        #expect(streams.waitForAClose())
        #expect(streams.closed.load(ordering: .relaxed) == 1)
        // Writing to a stream whose client left is harmless.
        streams.open.withLock { $0.first }?.write(Array("late\n".utf8))
    }

    @Test func aStoppingServerClosesOpenStreams() throws {
        let streams = Streams()
        let test = try server(streams)
        let client = try RawConnection(port: test.port)
        client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read(until: "first\n")
        let started = Date()
        test.server.shutdown(gracePeriod: 5)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(client.readToEnd().closed)
        #expect(streams.closed.load(ordering: .relaxed) == 1)
    }
}
