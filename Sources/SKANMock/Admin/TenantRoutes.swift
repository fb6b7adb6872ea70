import HTTPCore
import SKANDomain

/// The tenants, at the root only: `GET /__admin/tenants` (each named tenant, most recently used
/// first: its devices, requests in the journal, model, clock offset, faults in force and last
/// request) and `DELETE /__admin/tenants/{name}` (dropped: its next request starts it afresh).
/// Asked under a tenant's prefix, the 404 says they are the root's, with the path to use.
struct TenantRoutes: AdminRouteCollection {
    let tenants: TenantRegistry

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/tenants") { _, _, scope, writer in
            if let refusal = Self.notHere(.get, "/__admin/tenants", scope) { return writer.send(refusal) }
            writer.send(AdminResponse.json(list(scope.journal)))
        }
        group.on(.delete, "/tenants/{name}") { _, parameters, scope, writer in
            let name = parameters["name"] ?? ""
            if let refusal = Self.notHere(.delete, "/__admin/tenants/" + name, scope) { return writer.send(refusal) }
            guard TenantName.isValid(name.utf8) else {
                writer.send(.jsonError("bad tenant name \(name): \(TenantName.rule)", status: .badRequest))
                return
            }
            guard tenants.drop(name) else {
                writer.send(.jsonError("no tenant \(name)", status: .notFound))
                return
            }
            writer.send(AdminResponse.ok)
        }
    }

    /// The 404 for the tenants' routes asked for under a tenant's prefix; nil at the root.
    static func notHere(_ method: HTTPMethod, _ path: String, _ scope: TenantScope) -> HTTPResponse? {
        guard let tenant = scope.name else { return nil }
        return .jsonError(
            "no route for \(method) \(AppResponder.tenantPrefix)\(tenant)\(path): the tenants' routes are at the root: \(method) \(path)",
            status: .notFound)
    }

    func list(_ journal: Journal) -> JSONValue {
        let rows: [JSONValue] = tenants.slots.map { name, slot in
            let tenant = slot.site.tenant
            return .object([
                JSONMember("name", .string(name)),
                JSONMember("devices", .int(Int64(tenant.service.deviceCount))),
                JSONMember("requests", .int(Int64(journal.count(tenant.scoped(JournalFilter()))))),
                JSONMember("model", .string(tenant.service.model.name)),
                JSONMember("clock_offset_s", .int(tenant.clock.offsetSeconds)),
                JSONMember("faults", tenant.faults.json),
                JSONMember(
                    "last_request",
                    slot.lastRequestMilliseconds.map { .string(RFC3339.format(milliseconds: $0)) } ?? .null
                )
            ])
        }
        return .object([
            JSONMember("tenants", .array(rows)), JSONMember("count", .int(Int64(rows.count))),
            JSONMember("max", .int(Int64(tenants.capacity)))
        ])
    }
}
