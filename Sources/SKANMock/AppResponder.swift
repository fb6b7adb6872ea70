import HTTPCore
import SKANDomain

/// The server's first decision: a path under `/t/NAME` is the tenant NAME's (made on first use),
/// read by it without the prefix; any other path is the default tenant's. Each tenant's side
/// (`TenantSite`) then sends it to its admin routes, its postback receiver or its Singular side.
struct AppResponder: HTTPResponder {
    let site: TenantSite
    let tenants: TenantRegistry

    static let tenantPrefix = "/t/"

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        let path = request.path  // found once: each `path` searches the target for its `?`
        // Compared as bytes: the default tenant's paths differ at the second or third byte.
        if path.utf8.starts(with: Self.tenantPrefix.utf8) {
            respondForTenant(request, path, writer)
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
        var inner = request
        inner.target = prefix.innerTarget(request.target)
        let innerPath = inner.path  // found once, as for the default tenant
        // The guard and the token first: a refused admin request makes no tenant (G2).
        let isAdmin = AdminRouteGroup.isAdmin(innerPath)
        if isAdmin, let refusal = site.admin.refusal(for: inner) {
            writer.send(refusal)
            return
        }
        guard let tenant = tenants.site(prefix.name) else {
            // Every tenant is in use: refused, and journaled in the default tenant (when the path
            // is an endpoint's), since this one could not be made.
            let reason = "tenant \(prefix.name): \(tenants.fullReason)"
            writer.send(.jsonError(reason, status: .serviceUnavailable))
            site.singular.journal(
                HTTPRefusal(
                    status: .serviceUnavailable, reason: reason, method: request.method.rawValue,
                    target: inner.target, headers: request.headers, remoteAddress: request.remoteAddress,
                    tlsVersion: request.tlsVersion))
            return
        }
        tenant.respond(to: inner, path: innerPath, isAdmin: isAdmin, writer: writer)
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
