import HTTPCore
import SKANDomain

/// The model: `GET /__admin/model` and `PUT /__admin/model` (400 with every problem when it does
/// not load; the model in use stays).
struct ModelRoutes: AdminRouteCollection {
    let context: AppContext

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/model") { _, _, writer in writer.send(AdminResponse.json(context.service.model.json)) }
        group.on(.put, "/model") { request, _, writer in writer.send(replace(request)) }
    }

    private func replace(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let model = try ConversionModel.parse(bytes: request.body, source: "PUT /__admin/model")
            context.service.replaceModel(model)
            context.faults.replace(with: model.faults)
            return AdminResponse.json([
                "status": "ok", "model": ["name": .string(model.name), "source": .string(model.source)]
            ])
        } catch {
            return AdminResponse.problems(error)
        }
    }
}
