import HTTPCore

/// The server's first decision: the admin side (the admin API under `/__admin`, the console, the
/// phone set-up) goes to the `AdminRouteGroup`, which applies the guard and the token to each of
/// its routes; the postback paths Apple posts to, to the `PostbackReceiver`; everything else to
/// Singular's side, which journals whatever it gets.
struct AppResponder: HTTPResponder {
    let admin: AdminRouteGroup
    let singular: SingularEndpoints
    let postbacks: PostbackReceiver

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        let path = request.path  // found once: each `path` searches the target for its `?`
        if Self.isAdmin(path) {
            admin.respond(to: request, writer: writer)
        } else if let framework = PostbackReceiver.framework(at: path) {
            postbacks.respond(to: request, framework: framework, writer: writer)
        } else {
            singular.handle(request, writer)
        }
    }

    /// The admin side: the admin API and the console, which are never journaled.
    static func isAdmin(_ path: Substring) -> Bool {
        AdminRouteGroup.isAdmin(path)
    }
}
