import HTTPCore
import SKANDomain
import SKANReport

/// What the journal adds up to: `GET /__admin/report` (per device, with its postbacks as of now; with `--upstream`, how the
/// model compared with the upstream) and `GET /__admin/coverage` (which model entries answered).
struct ReportRoutes: AdminRouteCollection {
    let context: AppContext

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/report") { request, _, writer in
            writer.send(AdminResponse.withFilter(request) { filter in AdminResponse.json(report(filter)) })
        }
        group.on(.get, "/coverage") { _, _, writer in
            writer.send(AdminResponse.json(context.service.coverageJSON))
        }
    }

    func report(_ filter: JournalFilter) -> JSONValue {
        // Entries the server wrote itself always read back.
        let records = context.journal.query(context.scoped(filter)).entries.compactMap(\.record)
        var report = JournalReport(records: records)
        report.attachPostbacks(model: context.service.model, now: context.clock.nowMilliseconds()) {
            context.service.device($0)
        }
        report.checkReceived(model: context.service.model, device: nil, developerMode: false) { id, options in
            context.service.device(id).map { PostbackRoute.predict(context, id, $0, options) }
        }
        var members = report.json.objectValue ?? []
        if context.upstream != nil { members.append(JSONMember("upstream", UpstreamReport(records: records).json)) }
        return .object(members)
    }
}
