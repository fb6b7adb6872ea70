import HTTPCore
import SKANDomain

/// Injected faults: `GET`, `PUT` (replace the list; 400 with every problem) and `DELETE /__admin/faults`.
struct FaultRoutes: AdminRouteCollection {
    let context: AppContext

    func register(on group: inout AdminRouteGroup) {
        let faults = context.faults
        group.on(.get, "/faults") { _, _, writer in writer.send(AdminResponse.json(["faults": faults.json])) }
        group.on(.put, "/faults") { request, _, writer in writer.send(replace(request)) }
        group.on(.delete, "/faults") { _, _, writer in
            faults.clear()
            writer.send(AdminResponse.ok)
        }
    }

    private func replace(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let rules = try FaultRule.parseList(bytes: request.body, source: "PUT /__admin/faults")
            context.faults.replace(with: rules)
            return AdminResponse.json(["status": "ok", "faults": context.faults.json])
        } catch {
            return AdminResponse.problems(error)
        }
    }
}
