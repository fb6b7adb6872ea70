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
                return .jsonError(
                    name == "tier" ? "tier must be 0, 1, 2 or 3" : "unknown parameter \(name); use tier",
                    status: .badRequest)
            }
            tiers = [tier]
        }
        guard let device = context.service.device(id) else {
            return .jsonError("unknown device \(id)", status: .notFound)
        }
        let postbacks = DevicePostbacks(
            device: id, state: device, model: context.service.model, now: context.clock.nowMilliseconds(), tiers: tiers)
        return .json(JSONWriter.serialize(postbacks.json))
    }
}
