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

    public init(_ parameters: RequestParameters) {
        apiKey = parameters["a"]
        bundleID = parameters["i"]
        appVersion = parameters["app_v"]
        platform = parameters["p"]
        osVersion = parameters["v"] ?? parameters["ve"]
        event = parameters["n"]
        idfv = parameters["idfv"]
        sing = parameters["sing"]
        idfa = parameters["idfa"]
    }

    /// The key per-device state is kept under.
    public var device: String? { idfv ?? sing ?? idfa }

    /// iOS, compared case-insensitively ("iOS", "ios", "IOS").
    public var isIOS: Bool { platform?.lowercased() == "ios" }
}
