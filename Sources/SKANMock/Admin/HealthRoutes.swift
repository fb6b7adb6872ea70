import HTTPCore
import SKANDomain

/// `GET /__admin/health`, `/__admin/metrics` and `/__admin/openapi.yaml`: how the server is.
struct HealthRoutes: AdminRouteCollection {
    let server: ServerComponents
    /// At the root, health says how many named tenants there are, and their bound; metrics lists
    /// each one's series.
    let tenants: TenantRegistry

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/health") { _, _, scope, writer in writer.send(health(scope)) }
        group.on(.get, "/metrics") { _, _, scope, writer in
            let text = metrics(scope).text
            writer.send(HTTPResponse(headers: ["Content-Type": "text/plain; version=0.0.4"], body: Array(text.utf8)))
        }
        group.on(.get, "/openapi.yaml") { _, _, _, writer in
            writer.send(
                HTTPResponse(headers: ["Content-Type": "application/yaml"], body: Array(OpenAPIDocument.yaml.utf8)))
        }
    }

    /// A tenant's route: its own series only. The root's: the default tenant's (unlabelled), each
    /// named tenant's (labelled, by name), and the server's own.
    func metrics(_ scope: TenantScope) -> MetricsExposition {
        let journal = server.journal
        guard scope.isDefault else {
            return MetricsExposition(scopes: [scope.tenant.metricsScope(journal)], server: nil)
        }
        let named = tenants.slots.sorted { $0.name < $1.name }.map { $0.slot.site.tenant.metricsScope(journal) }
        return MetricsExposition(
            scopes: [scope.tenant.metricsScope(journal)] + named,
            server: MetricsExposition.Server(
                unservedConnections: server.metrics.unservedTotal, uptimeSeconds: uptimeSeconds,
                journalFile: server.journalFile?.status))
    }

    private var uptimeSeconds: Int64 { (MonotonicClock.microseconds() - server.startedAt) / 1_000_000 }

    func health(_ scope: TenantScope) -> HTTPResponse {
        let model = scope.service.model
        var modelInfo = [JSONMember("name", .string(model.name)), JSONMember("source", .string(model.source))]
        if let reloadError = server.modelStatus.reloadError {
            modelInfo.append(JSONMember("reload_error", .string(reloadError)))
        }
        var members = [
            JSONMember("status", "ok"), JSONMember("version", .string(SKANMockVersion.current)),
            JSONMember("uptime_s", .int(uptimeSeconds)), JSONMember("model", .object(modelInfo)),
            JSONMember("clock_offset_s", .int(scope.clock.offsetSeconds)), JSONMember("journal", journalHealth(scope)),
            JSONMember("devices", .int(Int64(scope.service.deviceCount)))
        ]
        if let name = scope.name { members.append(JSONMember("tenant", .string(name))) }
        if scope.isDefault {
            members.append(
                JSONMember(
                    "tenants",
                    [
                        "count": .int(Int64(tenants.count)), "max": .int(Int64(tenants.capacity)),
                        "device_capacity_each": .int(Int64(tenants.deviceBounds.capacity)),
                        "device_bytes_each": .int(Int64(tenants.deviceBounds.bytes)),
                        "journal_size_each": .int(Int64(server.journal.tenantCapacity)),
                        "journal_bytes_each": .int(Int64(server.journal.tenantCapacityBytes))
                    ]))
        }
        members.append(JSONMember("scope", Self.scope(of: members)))
        return AdminResponse.json(.object(members))
    }

    /// The members that are the tenant's own (what this tenant's requests, resets and model change)
    /// and those that are the server's (the same under every prefix), named member by member.
    static let tenantMembers: Set<String> = ["model", "clock_offset_s", "journal", "devices", "tenant"]

    /// `{"tenant": [...], "server": [...]}` for the members present; `journal.file` is the server's
    /// (one file for every tenant) inside the tenant's `journal`.
    static func scope(of members: [JSONMember]) -> JSONValue {
        var tenant: [JSONValue] = []
        var server: [JSONValue] = []
        for member in members {
            if tenantMembers.contains(member.key) {
                tenant.append(.string(member.key))
            } else {
                server.append(.string(member.key))
            }
            if member.key == "journal", member.value.objectValue?.contains(where: { $0.key == "file" }) == true {
                server.append("journal.file")
            }
        }
        return .object([JSONMember("tenant", .array(tenant)), JSONMember("server", .array(server))])
    }

    /// The in-memory journal, and with `--log` its file: `ok`, or `failing` since when, why, and
    /// how many lines wait to be written (and were given up).
    private func journalHealth(_ scope: TenantScope) -> JSONValue {
        let journal = server.journal
        // The tenant's own part: its entries, its drops, its bound (issue 46.1).
        let usage = journal.usage(tenant: scope.name)
        let bound = journal.bounds(tenant: scope.name)
        var members = [
            JSONMember("size", .int(Int64(usage.size))), JSONMember("dropped", .int(usage.dropped)),
            JSONMember("capacity", .int(Int64(bound.capacity))), JSONMember("bytes", .int(Int64(usage.bytes))),
            JSONMember("capacity_bytes", .int(Int64(bound.bytes)))
        ]
        if let file = server.journalFile {
            let status = file.status
            var state = [JSONMember("state", .string(status.isFailing ? "failing" : "ok"))]
            if let since = status.failingSince {
                state.append(JSONMember("since", .string(RFC3339.format(milliseconds: since))))
                state.append(JSONMember("reason", .string(status.reason ?? "")))
            }
            state.append(JSONMember("waiting", .int(Int64(status.waiting))))
            state.append(JSONMember("lost", .int(status.lost)))
            members.append(JSONMember("file", .object(state)))
        }
        return .object(members)
    }
}
