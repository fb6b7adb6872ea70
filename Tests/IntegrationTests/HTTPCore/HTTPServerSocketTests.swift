import Dispatch
import SystemPOSIX
import Testing

@testable import HTTPCore

/// A router with one route per behaviour the server must get right.
private func testRouter() -> HTTPRouter {
    var router = HTTPRouter()
    router.on(.get, "/hello") { _, _, writer in writer.send(.json("{\"hello\":\"world\"}")) }
    router.on(.post, "/echo") { request, _, writer in
        writer.send(HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: request.body))
    }
    router.on(.get, "/slow") { _, _, writer in
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { writer.send(.json("{\"slow\":true}")) }
    }
    router.on(.get, "/big") { _, _, writer in
        writer.send(HTTPResponse(body: [UInt8](repeating: UInt8(ascii: "x"), count: 8 * 1024 * 1024)))
    }
    router.on(.get, "/drop") { _, _, writer in writer.dropConnection() }
    router.on(.get, "/items/{name}") { _, parameters, writer in
        writer.send(.json("{\"name\":\"\(parameters["name"] ?? "")\"}"))
    }
    return router
}

@Suite("HTTPServer over real sockets")
struct HTTPServerSocketTests {
    @Test func answersAGetThroughCurl() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let response = try CurlClient().get(server.url("/hello"))
        #expect(response.status == 200)
        #expect(response.text == "{\"hello\":\"world\"}")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Content-Length") == "17")
    }

    @Test func reusesTheConnectionForConsecutiveRequests() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let client = CurlClient()
        var opened: [Int] = []
        for _ in 0..<5 { opened.append(try client.get(server.url("/hello")).connectsOpened) }
        #expect(opened == [1, 0, 0, 0, 0])
    }

    @Test func answersHeadWithHeadersButNoBody() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let client = CurlClient()
        let response = try client.request("HEAD", server.url("/hello"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Length") == "17")
        // The connection is still in step: the next request on it gets its own answer.
        let next = try client.get(server.url("/hello"))
        #expect(next.text == "{\"hello\":\"world\"}")
        #expect(next.connectsOpened == 0)
    }

    @Test func echoesAPostBody() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let body = Array("a=1&b=two".utf8)
        let response = try CurlClient().request("POST", server.url("/echo"), body: body)
        #expect(response.body == body)
    }

    @Test func readsAChunkedUploadLargerThanOneChunk() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let body = (0..<5000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let response = try CurlClient().request("POST", server.url("/echo"), body: body, chunked: true)
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test func answersExpectContinueSoLargeUploadsDoNotWait() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let body = [UInt8](repeating: 7, count: 100_000)
        let response = try CurlClient().request(
            "POST", server.url("/echo"), body: body, headers: ["Expect: 100-continue"])
        #expect(response.body == body)
    }

    @Test func routesWithParametersAndAnswers404And405() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let client = CurlClient()
        #expect(try client.get(server.url("/items/a%20b")).text == "{\"name\":\"a b\"}")
        let missing = try client.get(server.url("/nope"))
        #expect(missing.status == 404)
        #expect(missing.text == "no route for GET /nope\n")  // HTTPCore's default: plain text
        let wrongMethod = try client.request("DELETE", server.url("/hello"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /items/one HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nlast")
        let responses = connection.readResponses(3)
        #expect(responses.count == 3)
        #expect(responses.first?.hasSuffix("{\"slow\":true}") == true)
        #expect(responses.dropFirst().first?.hasSuffix("{\"name\":\"one\"}") == true)
        #expect(responses.last?.hasSuffix("last") == true)
    }

    /// An HTTP/1.0 client keeps a connection only when the answer says `Connection: keep-alive`:
    /// the server kept it but never said so, so such a client waited for a close that never came.
    @Test func anHTTP10KeepAliveConnectionIsAnnounced() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = connection.read(until: "{\"hello\":\"world\"}")
        #expect(first.contains("\r\nConnection: keep-alive\r\n"), "\(first)")
        // Kept indeed: a second request on it is answered, and without keep-alive it is closed.
        connection.send("GET /hello HTTP/1.0\r\n\r\n")
        let (second, closed) = connection.readToEnd()
        #expect(second.contains("Connection: close\r\n") && second.hasSuffix("{\"hello\":\"world\"}"))
        #expect(closed)
        // HTTP/1.1 needs no announcement.
        let modern = try RawConnection(port: server.port)
        modern.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(!modern.read(until: "{\"hello\":\"world\"}").contains("keep-alive"))
    }

    @Test func closesAfterConnectionClose() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (text, closed) = connection.readToEnd()
        #expect(closed)
        #expect(text.contains("Connection: close\r\n"))
        #expect(text.hasSuffix("{\"hello\":\"world\"}"))
    }

    /// Bad requests and the status each gets. Typed here, not a literal in `@Test(arguments:)`: Swift 6.0
    /// cannot type-check that literal in reasonable time.
    static let badInputs: [(String, Int)] = [
        ("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length : 3\r\n\r\nabc", 400),
        ("GET /hello HTTP/1.1\nHost: x\n\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x10\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("GET /" + String(repeating: "u", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET /hello HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "h", count: 17_000) + "\r\n\r\n", 431),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
        // 300 bytes of body in 1.2 MB of chunk extensions: framing counts against the 1 MiB limit.
        (
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(repeating: "1;e=" + String(repeating: "x", count: 4000) + "\r\nX\r\n", count: 300)
                + "0\r\n\r\n", 413
        )
    ]

    @Test(arguments: badInputs)
    func answersBadInputWithItsStatusAndCloses(request: String, status: Int) throws {
        let server = try TestHTTPServer(responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send(request)
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 \(status) "), "got: \(text.prefix(80))")
        #expect(text.contains("Connection: close"))
        #expect(text.contains("Content-Type: text/plain"))  // HTTPCore's default error body
        #expect(closed)
        // The server is unharmed: the next client is served.
        #expect(try CurlClient().get(server.url("/hello")).status == 200)
    }

    @Test func answers400ToAMalformedRequestAfterAGoodOneOnTheSameConnection() throws {
        let server = try TestHTTPServer(responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nBROKEN\r\n\r\n")
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("HTTP/1.1 400 Bad Request"))
        #expect(closed)
    }

    @Test func answers408WhenHeadersDoNotArriveInTime() throws {
        var limits = HTTPLimits()
        limits.headerTimeoutSeconds = 0.5
        let server = try TestHTTPServer(limits: limits, responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost:")
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout"))
        #expect(closed)
    }

    @Test func closesIdleKeepAliveConnections() throws {
        var limits = HTTPLimits()
        limits.idleTimeoutSeconds = 0.5
        let server = try TestHTTPServer(limits: limits, responder: testRouter())
        let connection = try RawConnection(port: server.port)
        connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(closed)
    }

    /// Full of connections that never said anything (slowloris): the oldest silent one makes room
    /// for a client that speaks, so a health check is not shut out for the whole header timeout.
    @Test func silentConnectionsMakeRoomWhenTheServerIsFull() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 2
        limits.headerTimeoutSeconds = 1  // silent for half of it (0.5 s) is silent enough
        let server = try TestHTTPServer(limits: limits, responder: testRouter())
        let silentOld = try RawConnection(port: server.port)
        let silentNew = try RawConnection(port: server.port)
        System.sleep(microseconds: 700_000)
        let speaker = try RawConnection(port: server.port)
        speaker.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(speaker.readResponses(1).first?.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(silentOld.readToEnd() == ("", true))
        _ = silentNew
    }

    @Test func refusesConnectionsPastTheLimitWith503() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 2
        let server = try TestHTTPServer(limits: limits, responder: testRouter())
        let first = try RawConnection(port: server.port)
        let second = try RawConnection(port: server.port)
        first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.readResponses(1).count == 1)
        #expect(second.readResponses(1).count == 1)
        let third = try RawConnection(port: server.port)
        third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let (text, closed) = third.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable"))
        #expect(closed)
    }

    @Test func survivesClientsThatVanishMidResponse() throws {
        let server = try TestHTTPServer(responder: testRouter())
        for _ in 0..<5 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            System.resetOnClose(connection.fd)  // close with a reset, mid-transfer
        }
        let dropped = try RawConnection(port: server.port)
        dropped.send("GET /drop HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(dropped.readToEnd() == ("", true))
        #expect(try CurlClient().get(server.url("/hello")).status == 200)
    }

    @Test func finishesRequestsInFlightOnShutdown() throws {
        let server = HTTPServer(configuration: .init(port: 0), responder: testRouter())
        try server.start()
        let connection = try RawConnection(port: server.port)
        connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let idle = try RawConnection(port: server.port)
        System.sleep(microseconds: 100_000)
        server.shutdown(gracePeriod: 5)
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("Connection: close"))
        #expect(text.hasSuffix("{\"slow\":true}"))
        #expect(closed)
        #expect(idle.readToEnd().closed)
        #expect(server.openConnections == 0)
        #expect(throws: (any Error).self) { try RawConnection(port: server.port) }
    }
}
