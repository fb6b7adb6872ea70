import HTTPCore
import SKANDomain

/// `GET /__admin/health`, `/__admin/metrics` and `/__admin/openapi.yaml`: how the server is.
struct HealthRoutes: AdminRouteCollection {
    let context: AppContext
    /// The root's: its health says how many named tenants there are, and their bound.
    var tenants: TenantRegistry? = nil

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/health") { _, _, writer in writer.send(health()) }
        group.on(.get, "/metrics") { _, _, writer in
            let text = metrics().text
            writer.send(HTTPResponse(headers: ["Content-Type": "text/plain; version=0.0.4"], body: Array(text.utf8)))
        }
        group.on(.get, "/openapi.yaml") { _, _, writer in
            writer.send(
                HTTPResponse(headers: ["Content-Type": "application/yaml"], body: Array(OpenAPIDocument.yaml.utf8)))
        }
    }

    /// A tenant's route: its own series only. The root's: the default tenant's (unlabelled), each
    /// named tenant's (labelled, by name), and the server's own.
    func metrics() -> MetricsExposition {
        let journal = context.journal
        guard let tenants else { return MetricsExposition(scopes: [context.tenant.metricsScope(journal)], server: nil) }
        let named = tenants.slots.sorted { $0.name < $1.name }.map { $0.slot.site.tenant.metricsScope(journal) }
        return MetricsExposition(
            scopes: [context.tenant.metricsScope(journal)] + named,
            server: MetricsExposition.Server(
                unservedConnections: context.server.metrics.unservedTotal, uptimeSeconds: uptimeSeconds,
                journalFile: context.journalFile?.status))
    }

    private var uptimeSeconds: Int64 { (MonotonicClock.microseconds() - context.startedAt) / 1_000_000 }

    func health() -> HTTPResponse {
        let model = context.service.model
        var modelInfo = [JSONMember("name", .string(model.name)), JSONMember("source", .string(model.source))]
        if let reloadError = context.modelStatus.reloadError {
            modelInfo.append(JSONMember("reload_error", .string(reloadError)))
        }
        var members = [
            JSONMember("status", "ok"), JSONMember("version", .string(SKANMockVersion.current)),
            JSONMember("uptime_s", .int(uptimeSeconds)), JSONMember("model", .object(modelInfo)),
            JSONMember("clock_offset_s", .int(context.clock.offsetSeconds)), JSONMember("journal", journalHealth),
            JSONMember("devices", .int(Int64(context.service.deviceCount)))
        ]
        if let name = context.tenant.name { members.append(JSONMember("tenant", .string(name))) }
        if let tenants {
            members.append(
                JSONMember(
                    "tenants",
                    [
                        "count": .int(Int64(tenants.count)), "max": .int(Int64(tenants.capacity)),
                        "device_capacity_each": .int(Int64(tenants.deviceBounds.capacity)),
                        "device_bytes_each": .int(Int64(tenants.deviceBounds.bytes)),
                        "journal_size_each": .int(Int64(context.journal.tenantCapacity)),
                        "journal_bytes_each": .int(Int64(context.journal.tenantCapacityBytes))
                    ]))
        }
        return AdminResponse.json(.object(members))
    }

    /// The in-memory journal, and with `--log` its file: `ok`, or `failing` since when, why, and
    /// how many lines wait to be written (and were given up).
    private var journalHealth: JSONValue {
        let journal = context.journal
        // The tenant's own part: its entries, its drops, its bound (issue 46.1).
        let usage = journal.usage(tenant: context.tenant.name)
        let bound = journal.bounds(tenant: context.tenant.name)
        var members = [
            JSONMember("size", .int(Int64(usage.size))), JSONMember("dropped", .int(usage.dropped)),
            JSONMember("capacity", .int(Int64(bound.capacity))), JSONMember("bytes", .int(Int64(usage.bytes))),
            JSONMember("capacity_bytes", .int(Int64(bound.bytes)))
        ]
        if let file = context.journalFile {
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
