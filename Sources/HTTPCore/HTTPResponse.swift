/// A response to write. `Content-Length` and `Connection` are the connection's business: it sets
/// them from the body and the keep-alive decision, so handlers cannot get framing wrong.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response: the body is sent as given, with `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: body)
    }

    /// Shared by every JSON answer (copy-on-write: nothing is allocated per response).
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

    public static func json(_ body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        json(Array(body.utf8), status: status)
    }

    /// Appends the wire form to `buffer`: one contiguous write per response, or per batch of
    /// pipelined responses, so a small answer costs one `send`.
    func serialize(into buffer: inout [UInt8], includeBody: Bool, closeConnection: Bool) {
        appendStatusAndFields(to: &buffer)
        if status.code >= 200 && status.code != 204 && status.code != 304 {
            buffer.append(contentsOf: "Content-Length: ".utf8)
            Self.appendDecimal(body.count, to: &buffer)
            buffer.append(contentsOf: "\r\n".utf8)
        }
        if closeConnection { buffer.append(contentsOf: "Connection: close\r\n".utf8) }
        buffer.append(contentsOf: "\r\n".utf8)
        if includeBody { buffer.append(contentsOf: body) }
    }

    /// The head of a streamed answer: no `Content-Length`, the body ends when the connection closes.
    func serializeStreamHead(into buffer: inout [UInt8]) {
        appendStatusAndFields(to: &buffer)
        buffer.append(contentsOf: "Connection: close\r\n\r\n".utf8)
    }

    /// The status line and the handler's fields; the framing fields are the connection's to write.
    private func appendStatusAndFields(to buffer: inout [UInt8]) {
        // Written piece by piece: string interpolation would allocate on every response.
        buffer.append(contentsOf: "HTTP/1.1 ".utf8)
        Self.appendDecimal(status.code, to: &buffer)
        buffer.append(ASCII.space)
        buffer.append(contentsOf: status.reason.utf8)
        buffer.append(contentsOf: "\r\n".utf8)
        for field in headers
        where !field.name.isEqualIgnoringASCIICase("Content-Length")
            && !field.name.isEqualIgnoringASCIICase("Connection")
        {
            buffer.append(contentsOf: field.name.utf8)
            buffer.append(contentsOf: ": ".utf8)
            buffer.append(contentsOf: field.value.utf8)
            buffer.append(contentsOf: "\r\n".utf8)
        }
    }

    /// A non-negative integer in decimal.
    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = max(0, value)
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
