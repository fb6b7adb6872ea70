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
    /// `announceKeepAlive`: an HTTP/1.0 exchange whose connection stays open says so.
    func serialize(
        into buffer: inout [UInt8], includeBody: Bool, closeConnection: Bool, announceKeepAlive: Bool = false
    ) {
        // Room for a head of the usual size and the body: one allocation, not one per piece.
        buffer.reserveCapacity(buffer.count + 192 + (includeBody ? body.count : 0))
        appendStatusAndFields(to: &buffer)
        if status.code >= 200 && status.code != 204 && status.code != 304 {
            Self.append("Content-Length: ", to: &buffer)
            Self.appendDecimal(body.count, to: &buffer)
            Self.append("\r\n", to: &buffer)
        }
        if closeConnection {
            Self.append("Connection: close\r\n", to: &buffer)
        } else if announceKeepAlive {
            Self.append("Connection: keep-alive\r\n", to: &buffer)
        }
        Self.append("\r\n", to: &buffer)
        if includeBody { buffer.append(contentsOf: body) }
    }

    /// The head of a streamed answer: no `Content-Length`, the body ends when the connection closes.
    func serializeStreamHead(into buffer: inout [UInt8]) {
        appendStatusAndFields(to: &buffer)
        Self.append("Connection: close\r\n\r\n", to: &buffer)
    }

    /// The status line and the handler's fields; the framing fields are the connection's to write.
    private func appendStatusAndFields(to buffer: inout [UInt8]) {
        // Written piece by piece: string interpolation would allocate on every response.
        Self.append("HTTP/1.1 ", to: &buffer)
        Self.appendDecimal(status.code, to: &buffer)
        buffer.append(ASCII.space)
        Self.append(status.reason, to: &buffer)
        Self.append("\r\n", to: &buffer)
        for field in headers
        where !field.name.isEqualIgnoringASCIICase("Content-Length")
            && !field.name.isEqualIgnoringASCIICase("Connection")
        {
            Self.append(field.name, to: &buffer)
            Self.append(": ", to: &buffer)
            Self.append(field.value, to: &buffer)
            Self.append("\r\n", to: &buffer)
        }
    }

    /// Appends a literal's bytes as one block (the sequence path of `append(contentsOf:)` costs
    /// more than the few bytes of a head's piece).
    @inline(__always)
    static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string's UTF-8 as one block, read in place.
    @inline(__always)
    static func append(_ text: String, to buffer: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: text.utf8)
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
