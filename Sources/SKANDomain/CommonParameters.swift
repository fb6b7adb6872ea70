/// The identity parameters every endpoint shares. Aliases are resolved here, once: `v` or `ve` for
/// the OS version, and the device key: on iOS `idfv`, else `sing`, else `idfa`; on Android `aifa`,
/// else `asid`, `oaid`, `amid`, `andi` (Singular's S2S reference names these); else `sdid` (empty
/// values count as absent).
///
/// Only the device key and the event are made into strings up front (every request needs them);
/// the rest are read from the parameters when asked for, which on the hot path is "is it there?".
public struct CommonParameters: Sendable {
    private let parameters: RequestParameters
    /// The event name (`n`).
    public let event: String?
    /// The key per-device state is kept under: `idfv`, `sing`, `idfa`, `aifa`, `asid`, `oaid`,
    /// `amid`, `andi`, then `sdid`, the first one sent.
    public let device: String?

    public init(_ parameters: RequestParameters) {
        self.parameters = parameters
        event = parameters[SKANParameter.event]
        device = Self.deviceKeys.lazy.compactMap { parameters[$0] }.first
    }

    /// The device ids in the order the device key is chosen from.
    static let deviceKeys: [SKANParameter] = [.idfv, .sing, .idfa, .aifa, .asid, .oaid, .amid, .andi, .sdid]

    public var apiKey: String? { parameters[SKANParameter.apiKey] }
    public var bundleID: String? { parameters[SKANParameter.bundleID] }
    public var appVersion: String? { parameters[SKANParameter.appVersion] }
    public var platform: String? { parameters[SKANParameter.platform] }
    public var osVersion: String? { parameters[SKANParameter.osVersion] ?? parameters[SKANParameter.osVersionAlias] }
    public var idfv: String? { parameters[SKANParameter.idfv] }
    public var sing: String? { parameters[SKANParameter.sing] }
    public var idfa: String? { parameters[SKANParameter.idfa] }
    /// The Singular Device ID of the v2 S2S endpoints.
    public var sdid: String? { parameters[SKANParameter.sdid] }

    /// Whether `parameter` was sent with a value, without making a string of it.
    public func has(_ parameter: SKANParameter) -> Bool { parameters.contains(parameter) }

    /// The device key of a request to `endpoint`: the v2 S2S endpoints identify it by `sdid`.
    public func device(for endpoint: SKANEndpoint) -> String? {
        endpoint.isSDIDBased ? sdid : device
    }

    /// Android, compared case-insensitively.
    public var isAndroid: Bool { platform?.lowercased() == "android" }

    /// iOS, compared case-insensitively ("iOS", "ios", "IOS").
    public var isIOS: Bool { platform?.lowercased() == "ios" }
}
