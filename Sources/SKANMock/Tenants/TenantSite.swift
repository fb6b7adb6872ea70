import HTTPCore

/// One tenant's side of the server, its paths read without the `/t/NAME` prefix: the admin side
/// (the admin API under `/__admin`, the console, the phone set-up) goes to its `AdminRouteGroup`,
/// which applies the guard and the token to each of its routes; the postback paths Apple posts
/// to, to its `PostbackReceiver`; everything else to its Singular side, which journals whatever
/// it gets. A class: a tenant's request takes it from the registry at one reference count, where
/// the struct's dozens of references cost a retain and a release each.
final class TenantSite: Sendable {
    let tenant: Tenant
    let admin: AdminRouteGroup
    let singular: SingularEndpoints
    let postbacks: PostbackReceiver

    init(tenant: Tenant, admin: AdminRouteGroup, singular: SingularEndpoints, postbacks: PostbackReceiver) {
        self.tenant = tenant
        self.admin = admin
        self.singular = singular
        self.postbacks = postbacks
    }

    /// `path` is `request.path`, found once by the caller (each `path` searches the target for its `?`).
    /// `isAdmin`, when the caller has found it already (a tenant's path), is not found again.
    func respond(
        to request: HTTPRequest, path: Substring, isAdmin: Bool? = nil, writer: HTTPResponseWriter
    ) {
        if isAdmin ?? AdminRouteGroup.isAdmin(path) {
            admin.respond(to: request, writer: writer)
        } else if let framework = PostbackReceiver.framework(at: path) {
            postbacks.respond(to: request, framework: framework, writer: writer)
        } else {
            singular.handle(request, writer)
        }
    }
}
