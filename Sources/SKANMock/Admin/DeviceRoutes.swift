import HTTPCore
import SKANDomain

/// A device: `GET /__admin/devices/{device}` (its state), `/postbacks` (what Apple would send) and
/// `POST .../postbacks/send` (send them to a receiver).
struct DeviceRoutes: AdminRouteCollection {
    let server: ServerComponents

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/devices/{device}") { _, parameters, scope, writer in
            let device = parameters["device"] ?? ""
            guard let state = scope.service.deviceState(device) else {
                writer.send(.jsonError("unknown device \(device)", status: .notFound))
                return
            }
            writer.send(AdminResponse.json(state))
        }
        let postbacks = PostbackRoute(signing: server.postbackSigning)
        group.on(.get, "/devices/{device}/postbacks") { request, parameters, scope, writer in
            writer.send(postbacks.answer(device: parameters["device"] ?? "", query: request.query, scope))
        }
        let sender = PostbackSender(server: server)
        group.on(.post, "/devices/{device}/postbacks/send") { request, parameters, scope, writer in
            sender.send(device: parameters["device"] ?? "", body: request.body, scope, writer: writer)
        }
    }
}
