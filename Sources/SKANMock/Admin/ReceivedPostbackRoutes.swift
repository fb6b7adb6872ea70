import HTTPCore
import SKANDomain
import SKANReport

/// `GET /__admin/postbacks/received[?device=ID&developer_mode=true]`: the postbacks received at
/// `/.well-known/.../report-attribution/`, oldest first, each decoded with the model, with the
/// signature's verdict and a comparison with skan-mock's prediction. With `device`, the postbacks
/// named for it or for none (a phone names none) are compared with that device; without it, each
/// with the device named on its receiving URL, or "unmatched" with the devices it could be.
struct ReceivedPostbackRoutes: AdminRouteCollection {
    let context: AppContext

    /// Devices looked at for an unmatched postback's candidates, most recently used first.
    static let candidateScan = 200
    static let candidateLimit = 10

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/postbacks/received") { request, _, writer in writer.send(answer(request.query)) }
    }

    func answer(_ query: Substring) -> HTTPResponse {
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
        let entries = context.receivedPostbacks.entries().filter {
            device == nil || $0.device == nil || $0.device == device
        }
        let model = context.service.model
        var predictions = Predictions(context: context, developerMode: developerMode ?? false)
        var postbacks: [JSONValue] = []
        for entry in entries {
            let target = device ?? entry.device
            let comparison =
                target.map { predictions.compare(entry.postback, device: $0) }
                ?? PostbackComparison.unmatched(entry.postback, candidates: predictions.candidates(entry.postback))
            let p = entry.postback
            let meaning =
                p.version?.hasPrefix("3.") == true
                ? nil : PostbackMeaning.received(index: p.index, fine: p.fine, coarse: p.coarse, model: model)
            let decoded: JSONValue = .object([
                JSONMember("window", .string(comparison.window)), JSONMember("index", .int(Int64(p.index))),
                JSONMember("tier", comparison.tier.map { .int(Int64($0)) } ?? .null),
                JSONMember("did_win", p.didWin.map { .bool($0) } ?? .null),
                JSONMember("fine", p.fine.map { .int($0) } ?? .null),
                JSONMember("coarse", p.coarse.map { .string($0) } ?? .null),
                JSONMember("transaction_id", .string(p.transactionID)),
                JSONMember("meaning", .array(meaning?.entries ?? [])),
                JSONMember("findings", .array(meaning?.finding.map { [$0.json] } ?? []))
            ])
            var members: [JSONMember] = [
                JSONMember("id", .int(entry.id)),
                JSONMember("time", .string(RFC3339.format(milliseconds: entry.timeMilliseconds))),
                JSONMember("path", .string(entry.path)), JSONMember("remote", .string(entry.remote)),
                JSONMember("framework", .string(p.framework.rawValue)),
                JSONMember("named_device", entry.device.map { .string($0) } ?? .null),
                JSONMember("postback", p.json)
            ]
            if let header = p.jwsHeader, let payload = p.jwsPayload {
                members.append(JSONMember("jws", ["header": header, "payload": payload]))
            }
            members += [
                JSONMember("decoded", decoded), JSONMember("verified", entry.verdict.json),
                JSONMember("comparison", comparison.json)
            ]
            postbacks.append(.object(members))
        }
        return AdminResponse.json(
            .object([
                JSONMember("postbacks", .array(postbacks)),
                JSONMember("dropped", .int(context.receivedPostbacks.dropped))
            ]))
    }

}

/// One answer's predictions, each device's made once per framework and `did-win` however many
/// postbacks are compared with it (an unmatched postback looks at up to 200 devices).
private struct Predictions {
    let context: AppContext
    let developerMode: Bool
    private var made: [String: DevicePostbacks?] = [:]

    init(context: AppContext, developerMode: Bool) {
        self.context = context
        self.developerMode = developerMode
    }

    mutating func compare(_ postback: ReceivedPostback, device id: String) -> PostbackComparison {
        let options = PostbackComparison.options(for: postback, developerMode: developerMode)
        let key = "\(options.framework.rawValue) \(options.didWin) \(id)"
        let predicted: DevicePostbacks?
        if let known = made[key] {
            predicted = known
        } else {
            predicted = context.service.device(id).map { PostbackRoute.predict(context, id, $0, options) }
            made[key] = predicted
        }
        guard let predicted else { return PostbackComparison.unknownDevice(postback, device: id) }
        return PostbackComparison.compare(postback, with: predicted)
    }

    /// The recently used devices whose prediction the postback matches.
    mutating func candidates(_ postback: ReceivedPostback) -> [String] {
        var found: [String] = []
        for id in context.service.recentDevices(limit: ReceivedPostbackRoutes.candidateScan)
        where found.count < ReceivedPostbackRoutes.candidateLimit {
            if compare(postback, device: id).result == .matches { found.append(id) }
        }
        return found
    }
}
