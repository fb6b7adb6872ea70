import HTTPCore
import SKANDomain
import SKANReport

/// `GET /__admin/postbacks/received[?device=ID&developer_mode=true]`: the postbacks received at
/// `/.well-known/.../report-attribution/`, oldest first, each decoded with the model, with the
/// signature's verdict and a comparison with skan-mock's prediction. With `device`, the postbacks
/// named for it or for none (a phone names none) are compared with that device; without it, each
/// with the device named on its receiving URL, or "unmatched" with the devices it could be.
struct ReceivedPostbackRoutes: AdminRouteCollection {
    let server: ServerComponents

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/postbacks/received") { request, _, scope, writer in
            writer.send(answer(request.query, scope))
        }
    }

    func answer(_ query: Substring, _ scope: TenantScope) -> HTTPResponse {
        var device: String?
        var developerMode: Bool?
        for (name, value) in FormURLEncoding.pairs(query) {
            switch name {
            case "device" where device == nil && !value.isEmpty: device = value
            case "developer_mode" where developerMode == nil && (value == "true" || value == "false"):
                developerMode = value == "true"
            case "device":
                return .jsonError("device must be given once, and not empty", status: .badRequest)
            case "developer_mode":
                return .jsonError("developer_mode must be given once, true or false", status: .badRequest)
            default:
                return .jsonError(
                    "unknown parameter \(name); GET /__admin/postbacks/received takes device and developer_mode",
                    status: .badRequest)
            }
        }
        let predictor = PostbackRoute(signing: server.postbackSigning)
        let service = scope.service
        func predict(_ id: String, _ options: PostbackQuery) -> DevicePostbacks? {
            service.device(id).map { predictor.predict(scope, id, $0, options) }
        }
        let checks = ReceivedPostbackCheck.check(
            scope.receivedPostbacks.entries(), device: device, model: service.model,
            developerMode: developerMode ?? false, predict: predict,
            candidates: { service.recentDevices(limit: ReceivedPostbackCheck.candidateScan) })
        return AdminResponse.json(
            .object([
                JSONMember("postbacks", .array(checks.map(\.json))),
                JSONMember("dropped", .int(scope.receivedPostbacks.dropped))
            ]))
    }
}
