import ByteWords

/// One parsed request: the head as the client sent it, and its whole body (de-chunked).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request-target exactly as sent, e.g. `/api/v1/conversion_value?a=1`.
    public var target: String {
        // A new target has no mount point of the old one.
        didSet { pathStart = nil }
    }
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer as `address:port` (`[v6]:port` for IPv6); set by the connection, empty in unit tests.
    public var remoteAddress: String
    /// The TLS version the request came over (`TLSv1.3`), nil for plain HTTP; set by the connection.
    public var tlsVersion: String?
    /// Where `path` starts when a responder has routed past a mount point (`/t/NAME`): the target
    /// stays as sent, where a new target cost every such request a copy of its query.
    private var pathStart: String.Index?

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http11,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The target up to the `?`, still percent-encoded, after any mount point.
    public var path: Substring {
        let start = pathStart ?? target.startIndex
        if let mark = queryMark { return target[start..<mark] }
        return target[start...]
    }

    /// Routes the rest of the path from `start`, an index of `target` at a `/` after a mount point:
    /// `path` starts there, `target` stays as sent.
    public mutating func mount(pathFrom start: String.Index) {
        precondition(start < target.endIndex && target.utf8[start] == UInt8(ascii: "/"))
        pathStart = target[start...].startIndex  // aligned once, not on every `path`
    }

    /// The raw query string after the `?` (empty when there is none).
    public var query: Substring {
        if let mark = queryMark { return target[target.utf8.index(after: mark)...] }
        return ""
    }

    /// Where the `?` is. Searched as bytes: `Character` comparison walks grapheme clusters, which
    /// cost a microsecond on a 1 KB SKAN query (the request line is ASCII, checked by the parser).
    private var queryMark: String.Index? {
        // On the contiguous bytes (every target the parser makes): the view's own search walks
        // an index a byte at a time, and `path` and `query` are asked for many times a request.
        if let offset = target.utf8.withContiguousStorageIfAvailable({
            ByteScan.firstIndex(of: UInt8(ascii: "?"), in: $0, from: 0, to: $0.count)
        }) {
            return offset.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
        }
        return target.utf8.firstIndex(of: UInt8(ascii: "?"))
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3): HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        if version == .http11 { return !headers.containsToken("close", in: "Connection") }
        return headers.containsToken("keep-alive", in: "Connection")
    }
}

public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public static let http10 = HTTPVersion(major: 1, minor: 0)
    public static let http11 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}
