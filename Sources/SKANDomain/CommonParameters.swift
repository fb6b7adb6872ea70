/// The identity parameters every endpoint shares. Aliases are resolved here, once: `v` or `ve` for
/// the OS version, and the device key `idfv`, else `sing`, else `idfa` (empty values count as absent).
public struct CommonParameters: Sendable, Equatable {
    public var apiKey: String?
    public var bundleID: String?
    public var appVersion: String?
    public var platform: String?
    public var osVersion: String?
    public var event: String?
    public var idfv: String?
    public var sing: String?
    public var idfa: String?
    /// The Singular Device ID of the v2 S2S endpoints.
    public var sdid: String?

    public init(_ parameters: RequestParameters) {
        typealias Name = SKANParameter
        apiKey = parameters[Name.apiKey]
        bundleID = parameters[Name.bundleID]
        appVersion = parameters[Name.appVersion]
        platform = parameters[Name.platform]
        osVersion = parameters[Name.osVersion] ?? parameters[Name.osVersionAlias]
        event = parameters[Name.event]
        idfv = parameters[Name.idfv]
        sing = parameters[Name.sing]
        idfa = parameters[Name.idfa]
        sdid = parameters[Name.sdid]
    }

    /// The key per-device state is kept under: `idfv`, else `sing`, else `idfa`, else `sdid`.
    public var device: String? { idfv ?? sing ?? idfa ?? sdid }

    /// The device key of a request to `endpoint`: the v2 S2S endpoints identify it by `sdid`.
    public func device(for endpoint: SKANEndpoint) -> String? {
        endpoint.isSDIDBased ? sdid : device
    }

    /// iOS, compared case-insensitively ("iOS", "ios", "IOS").
    public var isIOS: Bool { platform?.lowercased() == "ios" }
}
