import HTTPCore

/// The tenants' routes asked for under a tenant's prefix (`/t/NAME/__admin/tenants`): they are the
/// root's only, and the 404 says so, with the path to use, rather than "no route" alone.
struct TenantRoutesAtTheRoot: AdminRouteCollection {
    /// The tenant whose prefix the request came under.
    let tenant: String

    func register(on group: inout AdminRouteGroup) {
        let prefix = AppResponder.tenantPrefix + tenant
        group.on(.get, "/tenants") { _, _, writer in
            writer.send(Self.notHere(.get, "/__admin/tenants", prefix: prefix))
        }
        group.on(.delete, "/tenants/{name}") { _, parameters, writer in
            writer.send(Self.notHere(.delete, "/__admin/tenants/" + (parameters["name"] ?? ""), prefix: prefix))
        }
    }

    static func notHere(_ method: HTTPMethod, _ path: String, prefix: String) -> HTTPResponse {
        .jsonError(
            "no route for \(method) \(prefix)\(path): the tenants' routes are at the root: \(method) \(path)",
            status: .notFound)
    }
}
