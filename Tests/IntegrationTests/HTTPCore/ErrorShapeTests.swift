import Testing

/// The HTTP layer's own answers (404, 405, 400, 408...) leave skan-mock in the service's error
/// shape, `{"status":"error","reason":"..."}`: HTTPCore renders them through the app's
/// `HTTPErrorRenderer.singular`.
@Suite("HTTP-layer errors in the service's shape")
struct ErrorShapeTests {
    @Test func unknownPathsAndMethodsAnswerInTheServiceShape() throws {
        let mock = try TestSKANMock()
        let missing = try mock.client.get(mock.url("/__admin/nope"))
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/json")
        #expect(missing.text == "{\"status\":\"error\",\"reason\":\"no route for GET /__admin/nope\"}")
        let wrongMethod = try mock.client.request("DELETE", mock.url("/__admin/health"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.text.hasPrefix("{\"status\":\"error\",\"reason\":\"method DELETE not allowed"))
    }

    @Test func malformedRequestsAnswerInTheServiceShape() throws {
        let mock = try TestSKANMock()
        let connection = try RawConnection(port: mock.server.port)
        connection.send("GET /__admin/health HTTP/1.1\r\nHost: x\r\nContent-Length : 3\r\n\r\nabc")
        let (text, closed) = connection.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 400 "))
        #expect(text.contains("Content-Type: application/json\r\n"))
        #expect(text.contains("\r\n\r\n{\"status\":\"error\",\"reason\":"))
        #expect(closed)
    }
}
