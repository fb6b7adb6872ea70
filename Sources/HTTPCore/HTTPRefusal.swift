/// An answer the server gave on its own to a request it could not hand to the responder (a
/// malformed request, a head or body that did not arrive in time, one too large), as far as the
/// request was read: its method and target when its request line arrived, its headers when its
/// whole head did. An application that journals what clients send learns of these through
/// `HTTPServer.Configuration.refusalObserver`; the answer itself is the server's.
public struct HTTPRefusal: Sendable {
    public var status: HTTPStatus
    public var reason: String
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    /// The headers, when the whole head arrived (a body that did not); empty otherwise.
    public var headers: HTTPHeaders
    public var remoteAddress: String
    /// The TLS version on an HTTPS port (`TLSv1.3`), nil for plain HTTP.
    public var tlsVersion: String?
    /// The client closed the connection before its request was complete (a POST abandoned
    /// halfway): nothing was answered, and `status` is 0.
    public var clientLeft = false

    public init(
        status: HTTPStatus, reason: String, method: String, target: String, headers: HTTPHeaders = HTTPHeaders(),
        remoteAddress: String, tlsVersion: String? = nil
    ) {
        self.tlsVersion = tlsVersion
        self.status = status
        self.reason = reason
        self.method = method
        self.target = target
        self.headers = headers
        self.remoteAddress = remoteAddress
    }

    /// The target up to the `?`.
    public var path: Substring {
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// The target after the `?`.
    public var query: Substring {
        guard let mark = target.firstIndex(of: "?") else { return "" }
        return target[target.index(after: mark)...]
    }
}
