import HTTPCore
import SKANDomain

/// A device: `GET /__admin/devices/{device}` (its state), `/postbacks` (what Apple would send) and
/// `POST .../postbacks/send` (send them to a receiver).
struct DeviceRoutes: AdminRouteCollection {
    let context: AppContext

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/devices/{device}") { _, parameters, writer in
            let device = parameters["device"] ?? ""
            guard let state = context.service.deviceState(device) else {
                writer.send(.jsonError("unknown device \(device)", status: .notFound))
                return
            }
            writer.send(AdminResponse.json(state))
        }
        let postbacks = PostbackRoute(context: context)
        group.on(.get, "/devices/{device}/postbacks") { request, parameters, writer in
            writer.send(postbacks.answer(device: parameters["device"] ?? "", query: request.query))
        }
        let sender = PostbackSender(context: context)
        group.on(.post, "/devices/{device}/postbacks/send") { request, parameters, writer in
            sender.send(device: parameters["device"] ?? "", body: request.body, writer: writer)
        }
    }
}
