import HTTPCore

/// The server's first decision: the console (`/`, `/__admin/ui`) and the admin API (`/__admin`,
/// behind the token when one is set) go to the admin router; everything else to Singular's side,
/// which journals whatever it gets. On a loopback-only server, the console and admin changes first
/// pass the DNS rebinding guard.
struct AppResponder: HTTPResponder {
    let admin: any HTTPResponder
    let singular: SingularEndpoints
    /// Listening on loopback only: guard the console and admin changes by `Host`.
    let loopbackOnly: Bool

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        let path = request.path
        guard Self.isAdmin(path) else {
            singular.handle(request, writer)
            return
        }
        if loopbackOnly && LoopbackHostCheck.isGuarded(request)
            && !LoopbackHostCheck.isAllowed(host: request.headers["Host"]) {
            writer.send(LoopbackHostCheck.misdirected())
            return
        }
        admin.respond(to: request, writer: writer)
    }

    /// The admin side: the admin API and the console, which are never journaled.
    static func isAdmin(_ path: Substring) -> Bool {
        path == "/__admin" || path.hasPrefix("/__admin/") || ConsoleRoutes.isPublic(path)
    }
}
