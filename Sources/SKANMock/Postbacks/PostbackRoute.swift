import HTTPCore
import SKANDomain
import SKANReport

/// `GET /__admin/devices/{id}/postbacks[?tier=N&did_win=&developer_mode=&framework=&digits=&country=]`: what Apple would send the ad network for a
/// device, per crowd-anonymity tier (all four side by side unless one is asked for), with the
/// model's entries each value stands for, and the JSON of each postback in Apple's field names.
struct PostbackRoute: Sendable {
    /// The server's: how AdAttributionKit postbacks are signed.
    let signing: PostbackSigning

    func answer(device id: String, query: Substring, _ scope: TenantScope) -> HTTPResponse {
        let options: PostbackQuery
        switch PostbackQuery.parse(FormURLEncoding.pairs(query)) {
        case .success(let parsed): options = parsed
        case .failure(let failure): return .jsonError(failure.message, status: .badRequest)
        }
        guard let device = scope.service.device(id) else {
            return .jsonError("unknown device \(id)", status: .notFound)
        }
        return .json(JSONWriter.serialize(predict(scope, id, device, options).json))
    }

    /// What skan-mock predicts for device `id` (its state `device`) with `options`; the received
    /// postbacks' comparison uses it too.
    func predict(_ scope: TenantScope, _ id: String, _ device: DeviceState, _ options: PostbackQuery)
        -> DevicePostbacks
    {
        // Developer Mode files answers by the minute, which only the journal's times tell.
        var developer: DeveloperModeWindows?
        if options.developerMode {
            var windows = DeveloperModeWindows()
            let entries = scope.entries(JournalFilter(endpoint: .skan4, device: id)).entries
            for record in entries.compactMap(\.record) { windows.add(record) }
            // A journal emptied since: the windows still begin at the device's first call.
            if windows.state.firstCallSeconds == nil { windows.begin(at: device.skan4.firstCallSeconds) }
            developer = windows
        }
        return DevicePostbacks(
            device: id, state: device, model: scope.service.model, now: scope.clock.nowMilliseconds(),
            tiers: options.tiers, options: options, signing: signing,
            developerWindows: developer?.state)
    }
}
