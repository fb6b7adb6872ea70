import HTTPCore
import SKANDomain

/// The model: `GET /__admin/model` and `PUT /__admin/model` (400 with every problem when it does
/// not load; the model in use stays).
struct ModelRoutes: AdminRouteCollection {
    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/model") { _, _, scope, writer in writer.send(AdminResponse.json(scope.service.model.json)) }
        group.on(.put, "/model") { request, _, scope, writer in writer.send(Self.replace(request, scope)) }
    }

    private static func replace(_ request: HTTPRequest, _ scope: TenantScope) -> HTTPResponse {
        do {
            let model = try ConversionModel.parse(bytes: request.body, source: "PUT /__admin/model")
            scope.service.replaceModel(model)
            scope.faults.replace(with: model.faults)
            return AdminResponse.json([
                "status": "ok", "model": ["name": .string(model.name), "source": .string(model.source)]
            ])
        } catch {
            return AdminResponse.problems(error)
        }
    }
}
