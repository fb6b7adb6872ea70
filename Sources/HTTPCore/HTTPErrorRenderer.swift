/// How the HTTP layer words the answers it gives on its own: `400`/`408`/`413`/`414`/`431`/`505`
/// from the connection, `503` past the connection limit, `404`/`405` from `HTTPRouter`. The status
/// and a short reason come from HTTP; the body is the application's business (an API with its own
/// error shape sets a renderer for it, as Hummingbird apps render `HTTPError`). The default is a
/// plain-text line.
public struct HTTPErrorRenderer: Sendable {
    private let render: @Sendable (_ status: HTTPStatus, _ reason: String) -> HTTPResponse

    public init(_ render: @escaping @Sendable (_ status: HTTPStatus, _ reason: String) -> HTTPResponse) {
        self.render = render
    }

    /// The answer for `status` with `reason`. Headers a renderer sets are kept, except
    /// `Content-Length` and `Connection`, which the connection sets as for every response.
    public func response(_ status: HTTPStatus, reason: String) -> HTTPResponse {
        render(status, reason)
    }

    /// `reason` and a newline, as `text/plain`.
    public static let plainText = HTTPErrorRenderer { status, reason in
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array((reason + "\n").utf8))
    }
}
