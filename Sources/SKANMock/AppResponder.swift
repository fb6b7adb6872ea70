import HTTPCore
import SKANDomain

/// The server's first decision: a path under `/t/NAME` is the tenant NAME's (made on first use),
/// read by it without the prefix; any other path is the default tenant's. An admin path then goes
/// to the server's one admin router with that tenant's scope; any other, to the tenant's side
/// (`TenantSite`): its postback receiver or its Singular side.
struct AppResponder: HTTPResponder {
    /// The default tenant's side.
    let site: TenantSite
    let tenants: TenantRegistry
    /// Registered once, for every tenant.
    let admin: AdminRouteGroup

    static let tenantPrefix = "/t/"

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        let path = request.path  // found once: each `path` searches the target for its `?`
        // Compared as bytes: the default tenant's paths differ at the second or third byte.
        if path.utf8.starts(with: Self.tenantPrefix.utf8) {
            respondForTenant(request, path, writer)
        } else if AdminRouteGroup.isAdmin(path) {
            admin.respond(to: request, scope: site.scope, writer: writer)
        } else {
            site.respond(to: request, path: path, writer: writer)
        }
    }

    /// `/t/NAME[/rest]` sent to tenant NAME as `/rest` (`/` when there is none), the query kept;
    /// a name against the rule is refused with a 400 that states it.
    private func respondForTenant(_ request: HTTPRequest, _ path: Substring, _ writer: HTTPResponseWriter) {
        let prefix: TenantPrefix
        switch TenantPrefix.read(path) {
        case .success(let parsed): prefix = parsed
        case .failure(let refusal):
            let reason = "\(refusal.rawValue) \(path): \(TenantName.rule)"
            writer.send(.jsonError(reason, status: .badRequest))
            // Journaled in the default tenant (when the rest is an endpoint's), the rule in its
            // finding: no tenant of that name can hold it (G10).
            site.singular.journal(
                HTTPRefusal(
                    status: .badRequest, reason: reason, method: request.method.rawValue,
                    target: TenantPrefix.targetAfterName(request.target), headers: request.headers,
                    remoteAddress: request.remoteAddress, tlsVersion: request.tlsVersion))
            return
        }
        if prefix.restIsEmpty, request.method == .get || request.method == .head {
            // The tenant's home page links relatively, as the root's does: from `/t/NAME/`.
            writer.send(Self.redirect(to: path + "/" + request.target.dropFirst(path.count)))
            return
        }
        // The rest of the path, already found; a bare `/t/NAME` is the tenant's `/` (its home page).
        let innerPath = prefix.restIsEmpty ? "/" : path[prefix.rest...]
        var admitted: HTTPRequest?
        if AdminRouteGroup.isAdmin(innerPath) {
            // The admin router reads the path from the request: routed past `/t/NAME`.
            var inner = request
            if prefix.restIsEmpty {
                inner.target = prefix.innerTarget(request.target)
            } else {
                inner.mount(pathFrom: prefix.rest)
            }
            // The guard and the token first: a refused admin request makes no tenant (G2).
            if let refusal = admin.refusal(for: inner) {
                writer.send(refusal)
                return
            }
            admitted = inner
        }
        guard let tenant = tenants.site(prefix.name) else {
            // Every tenant is in use: refused, and journaled in the default tenant (when the path
            // is an endpoint's), since this one could not be made.
            let reason = "tenant \(prefix.name): \(tenants.fullReason)"
            writer.send(.jsonError(reason, status: .serviceUnavailable))
            site.singular.journal(
                HTTPRefusal(
                    status: .serviceUnavailable, reason: reason, method: request.method.rawValue,
                    target: prefix.innerTarget(request.target), headers: request.headers,
                    remoteAddress: request.remoteAddress,
                    tlsVersion: request.tlsVersion))
            return
        }
        if let admitted {
            admin.respond(to: admitted, scope: tenant.scope, writer: writer)
        } else {
            // Singular's side and the postback receiver take the path given, not the request's:
            // the request goes on as it came, uncopied.
            tenant.respond(to: request, path: innerPath, writer: writer)
        }
    }

    /// A permanent redirect that keeps the method: `/t/NAME` to `/t/NAME/`.
    static func redirect(to location: String) -> HTTPResponse {
        var response = HTTPResponse(status: .permanentRedirect)
        response.headers.set("Location", location)
        return response
    }

    /// Journals an answer the HTTP layer gave on its own to a request for an endpoint, in the
    /// tenant whose path it was; when that tenant does not exist yet (it is not made for a refusal)
    /// or its name is against the rule, in the default tenant, with a finding that says so (G11).
    func journal(_ refusal: HTTPRefusal) {
        let path = refusal.path
        guard path.utf8.starts(with: Self.tenantPrefix.utf8) else { return site.singular.journal(refusal) }
        var inner = refusal
        inner.target = TenantPrefix.targetAfterName(refusal.target)
        switch TenantPrefix.read(path) {
        case .success(let prefix):
            if let tenant = tenants.existing(prefix.name) { return tenant.singular.journal(inner) }
            site.singular.journal(
                inner,
                note:
                    "tenant \(prefix.name) did not exist yet, and a refused request makes none, so it is journaled in the default tenant"
            )
        case .failure(let why):
            site.singular.journal(inner, note: "\(why.rawValue) \(path): \(TenantName.rule)")
        }
    }

    /// The admin side: the admin API and the console, which are never journaled.
    static func isAdmin(_ path: Substring) -> Bool {
        AdminRouteGroup.isAdmin(path)
    }
}
