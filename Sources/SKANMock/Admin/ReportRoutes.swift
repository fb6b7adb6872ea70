import HTTPCore
import SKANDomain
import SKANReport

/// What the journal adds up to: `GET /__admin/report` (per device, with its postbacks as of now; with `--upstream`, how the
/// model compared with the upstream) and `GET /__admin/coverage` (which model entries answered).
struct ReportRoutes: AdminRouteCollection {
    let server: ServerComponents

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/report") { request, _, scope, writer in
            writer.send(AdminResponse.withFilter(request) { filter in AdminResponse.json(report(filter, scope)) })
        }
        group.on(.get, "/coverage") { _, _, scope, writer in
            writer.send(AdminResponse.json(scope.service.coverageJSON))
        }
    }

    func report(_ filter: JournalFilter, _ scope: TenantScope) -> JSONValue {
        // Entries the server wrote itself always read back.
        let records = scope.entries(filter).entries.compactMap(\.record)
        var report = JournalReport(records: records)
        let service = scope.service
        report.attachPostbacks(model: service.model, now: scope.clock.nowMilliseconds()) { service.device($0) }
        let predictor = PostbackRoute(signing: server.postbackSigning)
        report.checkReceived(model: service.model, device: nil, developerMode: false) { id, options in
            service.device(id).map { predictor.predict(scope, id, $0, options) }
        }
        var members = report.json.objectValue ?? []
        if server.answerMode.hasUpstream {
            members.append(JSONMember("upstream", UpstreamReport(records: records).json))
        }
        return .object(members)
    }
}
