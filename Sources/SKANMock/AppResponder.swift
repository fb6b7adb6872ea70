import HTTPCore

/// The server's first decision: the console (`/`, `/__admin/ui`) and the admin API (`/__admin`,
/// behind the token when one is set) go to the admin router; everything else to Singular's side,
/// which journals whatever it gets. The console and the admin API first pass the `AdminGuard`
/// (DNS rebinding, other origins, other machines).
struct AppResponder: HTTPResponder {
    let admin: any HTTPResponder
    let singular: SingularEndpoints
    let guardian: AdminGuard

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        let path = request.path
        guard Self.isAdmin(path) else {
            singular.handle(request, writer)
            return
        }
        if let refusal = guardian.refusal(for: request) {
            writer.send(refusal)
            return
        }
        admin.respond(to: request, writer: writer)
    }

    /// The admin side: the admin API and the console, which are never journaled.
    static func isAdmin(_ path: Substring) -> Bool {
        path == "/__admin" || path.hasPrefix("/__admin/") || ConsoleRoutes.isPublic(path)
    }
}
