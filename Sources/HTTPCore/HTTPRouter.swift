/// A router whose handlers need no scope: an `HTTPResponder` over `HTTPScopedRouter`, for a
/// server with one set of routes.
public struct HTTPRouter: HTTPResponder {
    public typealias Handler = @Sendable (HTTPRequest, HTTPRouteParameters, HTTPResponseWriter) -> Void

    private var routes: HTTPScopedRouter<Void>

    public init(errorRenderer: HTTPErrorRenderer = .plainText) {
        routes = HTTPScopedRouter(errorRenderer: errorRenderer)
    }

    /// Registers `handler` for `method` on `path`. `GET` routes answer `HEAD` too, without the body.
    public mutating func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        routes.on(method, path) { request, parameters, _, writer in handler(request, parameters, writer) }
    }

    public func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        routes.respond(to: request, scope: (), writer: writer)
    }

    /// Whether a route is registered for `path`, whatever its method.
    public func handles(_ path: Substring) -> Bool { routes.handles(path) }
}
