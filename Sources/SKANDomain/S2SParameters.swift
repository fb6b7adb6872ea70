/// What an app's back end forwards to `/api/v1/launch`, `/api/v1/evt` and the SDID-based
/// `/api/v2/launch`, `/api/v2/evt`: identity plus the SKAN metadata under either its SKAN 4 or its
/// SKAN 3 names.
public struct S2SParameters: Sendable, Equatable {
    /// The first required argument that is absent, in Singular's order: a, p, i, then idfv (v1, iOS
    /// only) or sdid (v2), then n (evt only).
    public var missingArgument: String?
    public var skan: SKAN4Parameters

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
        var missing: String?
        for (name, present) in required where !present {
            if missing == nil { missing = name.name }
            let message =
                name == .apiKey
                ? MissingAPIKey.message(endpoint: endpoint, path: path ?? endpoint.path)
                : "missing argument: \(name.name)"
            reader.add(name, .missingParameter, message)
        }
        // No device id of any kind: Singular cannot tie the request to a device, nor can skan-mock
        // keep its state. (On iOS the missing idfv has said so already; v2 needs sdid, said above.)
        if !endpoint.isSDIDBased && !common.isIOS && common.device == nil {
            reader.add(
                .aifa, .missingParameter,
                "no device id: an Android request identifies the device by aifa (Google advertising id), asid (App Set ID), oaid, amid or andi (Android ID), an iOS one by idfv; without one no device state is kept"
            )
        }
        let skan = SKAN4Parameters.parse(&reader, acceptSKAN3Names: true)
        return S2SParameters(missingArgument: missing, skan: skan)
    }
}
