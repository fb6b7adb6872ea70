import HTTPCore
import SKANDomain

extension HTTPResponse {
    /// `{"status":"error","reason":"..."}`, the shape every error takes in this service (and in
    /// Singular's): the app's own errors and, through `HTTPErrorRenderer.singular`, the HTTP layer's.
    /// The body is `SKANResponse.error`'s: one producer of the shape for the whole service.
    static func jsonError(_ reason: String, status: HTTPStatus) -> HTTPResponse {
        .json(SKANResponse.error(reason), status: status)
    }
}

extension HTTPErrorRenderer {
    /// The HTTP layer's own answers (400, 404, 405, 408, 413, 414, 431, 503...) in the service's shape.
    static let singular = HTTPErrorRenderer { status, reason in .jsonError(reason, status: status) }
}
