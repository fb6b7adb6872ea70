import HTTPCore
import SKANDomain
import SKANReport

/// `GET /__admin/devices/{id}/postbacks[?tier=N&did_win=&developer_mode=&framework=&digits=&country=]`: what Apple would send the ad network for a
/// device, per crowd-anonymity tier (all four side by side unless one is asked for), with the
/// model's entries each value stands for, and the JSON of each postback in Apple's field names.
struct PostbackRoute: Sendable {
    let context: AppContext

    func answer(device id: String, query: Substring) -> HTTPResponse {
        let options: PostbackQuery
        switch PostbackQuery.parse(FormURLEncoding.pairs(query)) {
        case .success(let parsed): options = parsed
        case .failure(let failure): return .jsonError(failure.message, status: .badRequest)
        }
        guard let device = context.service.device(id) else {
            return .jsonError("unknown device \(id)", status: .notFound)
        }
        return .json(JSONWriter.serialize(Self.predict(context, id, device, options).json))
    }

    /// What skan-mock predicts for device `id` (its state `device`) with `options`; the received
    /// postbacks' comparison uses it too.
    static func predict(_ context: AppContext, _ id: String, _ device: DeviceState, _ options: PostbackQuery)
        -> DevicePostbacks
    {
        // Developer Mode files answers by the minute, which only the journal's times tell.
        var developer: DeveloperModeWindows?
        if options.developerMode {
            var windows = DeveloperModeWindows()
            let entries = context.journal.query(context.scoped(JournalFilter(endpoint: .skan4, device: id))).entries
            for record in entries.compactMap(\.record) { windows.add(record) }
            // A journal emptied since: the windows still begin at the device's first call.
            if windows.state.firstCallSeconds == nil { windows.begin(at: device.skan4.firstCallSeconds) }
            developer = windows
        }
        return DevicePostbacks(
            device: id, state: device, model: context.service.model, now: context.clock.nowMilliseconds(),
            tiers: options.tiers, options: options, signing: context.postbackSigning,
            developerWindows: developer?.state)
    }
}
