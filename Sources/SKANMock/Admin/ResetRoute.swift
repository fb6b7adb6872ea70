import HTTPCore
import SKANDomain

/// `POST /__admin/reset[?scope=state|all]`: between test cases. `state` (the default) empties the
/// journal and forgets devices and faults; `all` also brings back the model the tenant was born
/// with (and its faults: the start-up model for the default tenant, the default tenant's model of
/// the moment for a named one) and the start-up clock offset. The answer lists what was reset.
struct ResetRoute: AdminRouteCollection {
    let server: ServerComponents

    func register(on group: inout AdminRouteGroup) {
        group.on(.post, "/reset") { request, _, scope, writer in writer.send(reset(request, scope)) }
    }

    private func reset(_ request: HTTPRequest, _ scope: TenantScope) -> HTTPResponse {
        let resetScope: ResetScope
        do {
            resetScope = try ResetScope(query: FormURLEncoding.pairs(request.query))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
        scope.clearJournal(devices: true)
        scope.service.resetDevices()
        scope.receivedPostbacks.clear()
        // The devices start again, so do their recorded answers: this tenant's only.
        server.answerMode.replay?.rewind(tenant: scope.name)
        switch resetScope {
        case .state:
            scope.faults.clear()
        case .all:
            scope.service.replaceModel(scope.tenant.birthModel)
            scope.faults.replace(with: scope.tenant.birthModel.faults)
            scope.clock.setOffset(seconds: server.startup.clockOffsetSeconds)
        }
        return AdminResponse.json(["status": "ok", "reset": .array(resetScope.parts.map { .string($0) })])
    }
}
