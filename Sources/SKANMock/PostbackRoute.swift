import HTTPCore
import SKANDomain

/// `GET /__admin/devices/{id}/postbacks[?tier=N]`: what Apple would send the ad network for a
/// device, per crowd-anonymity tier (all four side by side unless one is asked for), with the
/// model's entries each value stands for, and the JSON of each postback in Apple's field names.
struct PostbackRoute: Sendable {
    let context: AppContext

    func answer(device id: String, query: Substring) -> HTTPResponse {
        var tiers = [0, 1, 2, 3]
        for (name, value) in FormURLEncoding.pairs(query) {
            guard name == "tier", let tier = Int(value), (0...3).contains(tier) else {
                return .jsonError(name == "tier" ? "tier must be 0, 1, 2 or 3" : "unknown parameter \(name); use tier", status: .badRequest)
            }
            tiers = [tier]
        }
        guard let device = context.service.device(id) else {
            return .jsonError("unknown device \(id)", status: .notFound)
        }
        let now = context.clock.nowMilliseconds()
        let model = context.service.model
        let skan4: [JSONValue] = tiers.map { tier in
            let postbacks = PostbackSimulator.skan4(device.skan4, tier: tier, now: now).map { postback in
                Self.json(postback, window: "p\(postback.index)", meaning: PostbackMeaning.skan4(postback, model: model), version: "4.0")
            }
            return .object([JSONMember("tier", .int(Int64(tier))), JSONMember("postbacks", .array(postbacks))])
        }
        let skan3 = PostbackSimulator.skan3(device.skan3, now: now).map { Self.json($0, window: nil, meaning: nil, version: "3.0") } ?? .null
        let body: JSONValue = .object([
            JSONMember("device", .string(id)), JSONMember("now", .string(RFC3339.format(milliseconds: now))),
            JSONMember("model", .string(model.name)), JSONMember("skan4", .array(skan4)), JSONMember("skan3", skan3),
        ])
        return .json(JSONWriter.serialize(body))
    }

    static func json(_ postback: PostbackSimulator.Postback, window: String?, meaning: PostbackMeaning.Meaning?, version: String) -> JSONValue {
        func time(_ seconds: Int64?) -> JSONValue { seconds.map { .string(RFC3339.format(milliseconds: $0 * 1000)) } ?? .null }
        var members: [JSONMember] = [JSONMember("index", .int(Int64(postback.index)))]
        if let window { members.append(JSONMember("window", .string(window))) }
        members += [
            JSONMember("status", .string(postback.status.rawValue)),
            JSONMember("window_start", time(postback.windowStart)), JSONMember("window_end", time(postback.windowEnd)),
            JSONMember("send_earliest", time(postback.sendInterval?.lowerBound)), JSONMember("send_latest", time(postback.sendInterval?.upperBound)),
            JSONMember("fine", postback.fine.map { .int($0) } ?? .null), JSONMember("coarse", postback.coarse.map { .int($0) } ?? .null),
            JSONMember("reason", postback.reason.map { .string($0) } ?? .null),
        ]
        if let meaning {
            members.append(JSONMember("meaning", .array(meaning.entries)))
            members.append(JSONMember("findings", .array(meaning.finding.map { [$0.json] } ?? [])))
        }
        members.append(JSONMember("apple", postback.status == .neverSent ? .null : PostbackSimulator.appleJSON(postback, version: version)))
        return .object(members)
    }
}
