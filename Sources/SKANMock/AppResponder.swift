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
        guard let (name, rest) = Self.split(path) else {
            writer.send(.jsonError("no tenant at \(path): \(TenantName.rule)", status: .badRequest))
            return
        }
        guard TenantName.isValid(name.utf8) else {
            writer.send(.jsonError("bad tenant name in \(path): \(TenantName.rule)", status: .badRequest))
            return
        }
        var inner = request
        let query = request.target[path.endIndex...]
        inner.target = (rest.isEmpty ? "/" : String(rest)) + query
        let site = tenants.site(String(name))
        site.respond(to: inner, path: inner.path, writer: writer)
    }

    /// Journals an answer the HTTP layer gave on its own to a request for an endpoint, in the
    /// tenant whose path it was (one that does not exist yet is not made for it).
    func journal(_ refusal: HTTPRefusal) {
        let path = refusal.path
        guard path.utf8.starts(with: Self.tenantPrefix.utf8) else { return site.singular.journal(refusal) }
        guard let (name, rest) = Self.split(path), TenantName.isValid(name.utf8),
            let tenant = tenants.existing(String(name))
        else { return }
        var inner = refusal
        inner.target = (rest.isEmpty ? "/" : String(rest)) + refusal.target[path.endIndex...]
        tenant.singular.journal(inner)
    }

    /// The name and the rest of a path that starts with `/t/`; nil when the name is empty.
    static func split(_ path: Substring) -> (name: Substring, rest: Substring)? {
        let afterPrefix = path.dropFirst(tenantPrefix.utf8.count)
        let name = afterPrefix.prefix { $0 != "/" }
        guard !name.isEmpty else { return nil }
        return (name, afterPrefix[name.endIndex...])
    }

    /// The admin side: the admin API and the console, which are never journaled.
    static func isAdmin(_ path: Substring) -> Bool {
        AdminRouteGroup.isAdmin(path)
    }
}
