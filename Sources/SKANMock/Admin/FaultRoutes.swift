import HTTPCore
import SKANDomain

/// Injected faults: `GET`, `PUT` (replace the list; 400 with every problem) and `DELETE /__admin/faults`.
struct FaultRoutes: AdminRouteCollection {
    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/faults") { _, _, scope, writer in
            writer.send(AdminResponse.json(["faults": scope.faults.json]))
        }
        group.on(.put, "/faults") { request, _, scope, writer in writer.send(Self.replace(request, scope.faults)) }
        group.on(.delete, "/faults") { _, _, scope, writer in
            scope.faults.clear()
            writer.send(AdminResponse.ok)
        }
    }

    private static func replace(_ request: HTTPRequest, _ faults: FaultInjector) -> HTTPResponse {
        do {
            let rules = try FaultRule.parseList(bytes: request.body, source: "PUT /__admin/faults")
            faults.replace(with: rules)
            return AdminResponse.json(["status": "ok", "faults": faults.json])
        } catch {
            return AdminResponse.problems(error)
        }
    }
}
