import HTTPCore

/// One tenant's side of the server outside the admin routes, its paths read without the `/t/NAME`
/// prefix: the postback paths Apple posts to go to its `PostbackReceiver`; everything else to its
/// Singular side, which journals whatever it gets. The admin routes are the server's one
/// `AdminRouteGroup`, which each request reaches with this tenant's scope. A class: a tenant's
/// request takes it from the registry at one reference count.
final class TenantSite: Sendable {
    let tenant: Tenant
    let singular: SingularEndpoints
    let postbacks: PostbackReceiver
    /// The tenant's state and its journal view, as the admin routes receive it.
    let scope: TenantScope

    /// The tenant's side over the server's answer mode, journal and postback verifier.
    init(tenant: Tenant, server: ServerComponents, routes: SingularRoutes) {
        self.tenant = tenant
        scope = TenantScope(tenant: tenant, journal: server.journal)
        singular = SingularEndpoints(tenant: tenant, server: server, routes: routes)
        postbacks = PostbackReceiver(scope: scope, verifier: server.postbackVerifier)
    }

    /// `path` is the path the tenant reads: `request.path` for the default tenant, found once by the
    /// caller (each `path` searches the target for its `?`), and what follows `/t/NAME` for a named one.
    func respond(to request: HTTPRequest, path: Substring, writer: HTTPResponseWriter) {
        if let framework = PostbackReceiver.framework(at: path) {
            postbacks.respond(to: request, path: path, framework: framework, writer: writer)
        } else {
            singular.handle(request, path: path, writer)
        }
    }
}
