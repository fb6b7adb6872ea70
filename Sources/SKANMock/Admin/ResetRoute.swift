import HTTPCore
import SKANDomain

/// `POST /__admin/reset[?scope=state|all]`: between test cases. `state` (the default) empties the
/// journal and forgets devices and faults; `all` also brings back the model the tenant was born
/// with (and its faults: the start-up model for the default tenant, the default tenant's model of
/// the moment for a named one) and the start-up clock offset. The answer lists what was reset.
struct ResetRoute: AdminRouteCollection {
    let context: AppContext

    func register(on group: inout AdminRouteGroup) {
        group.on(.post, "/reset") { request, _, writer in writer.send(reset(request)) }
    }

    private func reset(_ request: HTTPRequest) -> HTTPResponse {
        let scope: ResetScope
        do {
            scope = try ResetScope(query: FormURLEncoding.pairs(request.query))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
        JournalRoutes.clear(context, devices: true)
        context.service.resetDevices()
        context.receivedPostbacks.clear()
        // The devices start again, so do their recorded answers: this tenant's only.
        context.replay?.rewind(tenant: context.tenant.name)
        switch scope {
        case .state:
            context.faults.clear()
        case .all:
            context.service.replaceModel(context.tenant.birthModel)
            context.faults.replace(with: context.tenant.birthModel.faults)
            context.clock.setOffset(seconds: context.startup.clockOffsetSeconds)
        }
        return AdminResponse.json(["status": "ok", "reset": .array(scope.parts.map { .string($0) })])
    }
}
