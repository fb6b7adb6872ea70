import Testing

@testable import HTTPCore

@Suite struct HTTPResponseTests {
    @Test func serialisesStatusFieldsAndLength() {
        var wire: [UInt8] = []
        HTTPResponse.json(Array("{\"status\":\"ok\"}".utf8)).serialize(
            into: &wire, includeBody: true, closeConnection: false)
        #expect(
            String(decoding: wire, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}")
        wire = []
        HTTPResponse(status: HTTPStatus(code: 503), headers: [:], body: []).serialize(
            into: &wire, includeBody: false, closeConnection: true)
        #expect(String(decoding: wire, as: UTF8.self).hasPrefix("HTTP/1.1 503 "))
        #expect(String(decoding: wire, as: UTF8.self).hasSuffix("Content-Length: 0\r\nConnection: close\r\n\r\n"))
    }

    /// The framing fields are the connection's: a handler's own, in any case, are left out, and
    /// fields of the same length with other names stay.
    @Test func leavesOutTheHandlersFramingFields() {
        var wire: [UInt8] = []
        HTTPResponse(
            status: .ok,
            headers: ["content-length": "99", "CONNECTION": "keep-alive", "X-Length-Abc12": "a", "X-Conn-Ab": "b"],
            body: Array("ok".utf8)
        ).serialize(into: &wire, includeBody: true, closeConnection: false)
        #expect(
            String(decoding: wire, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nX-Length-Abc12: a\r\nX-Conn-Ab: b\r\nContent-Length: 2\r\n\r\nok")
    }

    @Test func writesDecimalsOfEveryLength() {
        for value in [0, 1, 9, 10, 99, 100, 101, 999, 1000, 65_535, 1_048_576, 123_456_789] {
            var out: [UInt8] = []
            HTTPResponse.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }
}
