/// What an app's back end forwards to `/api/v1/launch`, `/api/v1/evt` and the SDID-based
/// `/api/v2/launch`, `/api/v2/evt`: identity plus the SKAN metadata under either its SKAN 4 or its
/// SKAN 3 names, and what Singular would refuse it for.
public struct S2SParameters: Sendable, Equatable {
    /// Why Singular refuses the request (`{"status":"error","reason":...}`, HTTP 200): the first
    /// required argument that is absent, in Singular's order (a, p, i, then idfv on v1 iOS or sdid
    /// on v2, then n on evt), else a platform it does not know, else no device id at all.
    public var refusal: String?
    public var skan: SKAN4Parameters

    /// The platforms Singular's S2S API takes (compared case-insensitively): the mobile ones, the
    /// web, connected TV (`CTV`, in Singular's S2S reference), and PC and the consoles that Unity
    /// games send (RudderStack's Singular destination forwards `pc`, `xbox`, `playstation`,
    /// `nintendo` and `metaquest`). All but iOS and Android identify the device by `sdid`.
    public static let platforms = [
        "iOS", "Android", "Web", "PC", "CTV", "Xbox", "PlayStation", "Nintendo", "MetaQuest"
    ]
    private static let platformKeys = Set(platforms.map { $0.lowercased() })

    /// `path` is the path the request came to: Singular's own, or a `--route` alias of it.
    public static func parse(
        _ reader: inout ParameterReader, common: CommonParameters, endpoint: SKANEndpoint,
        path: String? = nil
    ) -> S2SParameters {
        typealias Name = SKANParameter
        var required: [(SKANParameter, Bool)] = [
            (Name.apiKey, common.has(.apiKey)), (Name.platform, common.has(.platform)),
            (Name.bundleID, common.has(.bundleID))
        ]
        if endpoint.isSDIDBased {
            required.append((Name.sdid, common.has(.sdid)))
        } else if common.isIOS {
            required.append((Name.idfv, common.has(.idfv)))
        }
        if endpoint == .event || endpoint == .event2 { required.append((Name.event, common.event != nil)) }
        var refusal: String?
        for (name, present) in required where !present {
            if refusal == nil { refusal = "missing argument: \(name.name)" }
            var message =
                name == .apiKey
                ? MissingAPIKey.message(endpoint: endpoint, path: path ?? endpoint.path)
                : "missing argument: \(name.name)"
            if name == .idfv || name == .sdid, let path, path != endpoint.path {
                // A back end that names the device id its own way (Ecosia's sends `sing`).
                message +=
                    "; \(path) is a --route alias: if the back end sends the device id under another name, the alias can copy it (e.g. \(name.name)={sing} after its ?)"
            }
            reader.add(name, .missingParameter, message)
        }
        if let platform = common.platform, !platformKeys.contains(platform.lowercased()) {
            if refusal == nil { refusal = "invalid platform: \(platform)" }
            reader.add(
                .platform, .invalidPlatform,
                "invalid platform: \(platform); Singular takes \(platforms.joined(separator: ", ")) (in any case)")
        }
        // No device id of any kind: Singular cannot tie the request to a device, nor can skan-mock
        // keep its state. (On iOS the missing idfv has said so already; v2 needs sdid, said above.)
        if !endpoint.isSDIDBased && !common.isIOS && common.device == nil {
            if refusal == nil { refusal = "no device ID supplied" }
            if common.isAndroid {
                reader.add(
                    .aifa, .missingParameter,
                    "no device ID supplied: an Android request identifies the device by aifa (Google advertising id), asid (App Set ID), oaid, amid or andi (Android ID), an iOS one by idfv; without one no device state is kept"
                )
            } else {
                let platform = common.platform.map { "a \($0) request" } ?? "a request"
                reader.add(
                    .sdid, .missingParameter,
                    "no device ID supplied: \(platform) identifies the device by sdid (the Singular Device ID, which /api/v2/launch and /api/v2/evt require), sing or idfa; without one no device state is kept"
                )
            }
        }
        let skan = SKAN4Parameters.parse(&reader, acceptSKAN3Names: true)
        return S2SParameters(refusal: refusal, skan: skan)
    }
}
