import HTTPCore

/// The server's first decision: `/__admin` goes to the admin API (behind the token when one is
/// set), everything else to Singular's side, which journals whatever it gets.
struct AppResponder: HTTPResponder {
    let admin: any HTTPResponder
    let singular: SingularEndpoints

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        if Self.isAdmin(request.path) {
            admin.respond(to: request, writer: writer)
        } else {
            singular.handle(request, writer)
        }
    }

    static func isAdmin(_ path: Substring) -> Bool {
        path == "/__admin" || path.hasPrefix("/__admin/")
    }
}
