import HTTPCore
import SKANDomain

/// What the journal adds up to: `GET /__admin/report` (per device; with `--upstream`, how the
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
        let entries = context.journal.query(filter).entries.map(\.json)
        var members = JournalReport(entries: entries).json.objectValue ?? []
        if context.upstream != nil { members.append(JSONMember("upstream", UpstreamReport(entries: entries).json)) }
        return .object(members)
    }
}
