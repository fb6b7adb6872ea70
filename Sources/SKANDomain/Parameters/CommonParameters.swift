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

    /// The id or event name sent longer than `maxIdentifierBytes`, and its length, when there is
    /// one: what the server keeps (`device`, `event`) is its first `maxIdentifierBytes`.
    public let deviceTooLong: (name: String, bytes: Int)?
    public let eventTooLong: Int?

    /// The most bytes of a device id or an event name the server keeps. Device state is held per
    /// id and counts events per name, so a megabyte id must not become a megabyte of state; real
    /// IDFVs are 36 characters, event names a few dozen.
    public static let maxIdentifierBytes = 256

    public init(_ parameters: RequestParameters) {
        self.parameters = parameters
        var event = parameters[SKANParameter.event]
        eventTooLong = event.flatMap { $0.utf8.count > Self.maxIdentifierBytes ? $0.utf8.count : nil }
        if eventTooLong != nil { event = event.map(Self.bounded) }
        self.event = event
        var device: String?
        var key = SKANParameter.idfv
        for candidate in Self.deviceKeys {
            if let value = parameters[candidate] {
                device = value
                key = candidate
                break
            }
        }
        if let value = device, value.utf8.count > Self.maxIdentifierBytes {
            deviceTooLong = (key.name, value.utf8.count)
            device = Self.bounded(value)
        } else {
            deviceTooLong = nil
        }
        self.device = device
    }

    /// `text` cut to `maxIdentifierBytes`, at the start of a character.
    static func bounded(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > maxIdentifierBytes else { return text }
        var end = maxIdentifierBytes
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[0..<end], as: UTF8.self)
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
    /// The Singular Device ID of the v2 S2S endpoints (cut as `device` is).
    public var sdid: String? { parameters[SKANParameter.sdid].map(Self.bounded) }

    /// Whether `parameter` was sent with a value, without making a string of it.
    public func has(_ parameter: SKANParameter) -> Bool { parameters.contains(parameter) }

    /// The device key of a request to `endpoint`: the v2 S2S endpoints identify it by `sdid`.
    public func device(for endpoint: SKANEndpoint) -> String? {
        endpoint.isSDIDBased ? sdid : device
    }

    /// The device id of a request to `endpoint` sent longer than `maxIdentifierBytes`: its name
    /// and length.
    public func deviceTooLong(for endpoint: SKANEndpoint) -> (name: String, bytes: Int)? {
        guard endpoint.isSDIDBased else { return deviceTooLong }
        guard let bytes = parameters[SKANParameter.sdid]?.utf8.count, bytes > Self.maxIdentifierBytes else {
            return nil
        }
        return (SKANParameter.sdid.name, bytes)
    }

    /// Android, compared case-insensitively.
    public var isAndroid: Bool { platform?.lowercased() == "android" }

    /// iOS, compared case-insensitively ("iOS", "ios", "IOS").
    public var isIOS: Bool { platform?.lowercased() == "ios" }
}
