import Foundation

/// What Apple would send the ad network for one device (`GET /__admin/devices/{id}/postbacks`).
public struct Postbacks: Sendable, Equatable, Decodable {
    /// One crowd-anonymity tier's postbacks.
    public struct Tier: Sendable, Equatable, Decodable {
        public var tier: Int
        public var postbacks: [Postback]
    }

    /// One postback, as of the server's `now`.
    public struct Postback: Sendable, Equatable, Decodable {
        /// 0, 1, 2 (Apple's `postback-sequence-index`).
        public var index: Int
        /// `p0`, `p1`, `p2` (nil for SKAN 3).
        public var window: String?
        /// `pending`, `locked`, `sent_by` or `never_sent`.
        public var status: String
        public var windowStart: String?
        public var windowEnd: String?
        public var sendEarliest: String?
        public var sendLatest: String?
        public var fine: Int?
        public var coarse: Int?
        /// Why it is never sent, or what it waits for.
        public var reason: String?
        /// The model's entries that give this value.
        public var meaning: [MockJSON]?
        /// `value_not_in_model` when no entry gives it.
        public var findings: [Finding]?
        /// The postback in Apple's field names (nil when never sent): SKAdNetwork's JSON, or
        /// AdAttributionKit's outer object with `jws-string`.
        public var apple: MockJSON?
        /// AdAttributionKit only: the JWS's `header`, `payload`, `signature` (nil when unsigned) and `reason`.
        public var jws: MockJSON?
        /// The first postback when the server answered nothing in p0: `answered`, `app_reported` or
        /// `registration` (0).
        public var valueSource: String?

        enum CodingKeys: String, CodingKey {
            case index, window, status, fine, coarse, reason, meaning, findings, apple, jws
            case valueSource = "value_source"
            case windowStart = "window_start"
            case windowEnd = "window_end"
            case sendEarliest = "send_earliest"
            case sendLatest = "send_latest"
        }
    }

    public var device: String
    /// The server's clock (with its time-travel offset).
    public var now: String
    public var model: String?
    /// `skan` or `aak`, as asked.
    public var framework: String?
    public var didWin: Bool?
    public var developerMode: Bool?
    public var skan4: [Tier]
    public var skan3: Postback?

    enum CodingKeys: String, CodingKey {
        case device, now, model, framework, skan4, skan3
        case didWin = "did_win"
        case developerMode = "developer_mode"
    }

    /// The SKAN 4 postbacks at `tier`, when it was asked for.
    public func tier(_ tier: Int) -> [Postback]? { skan4.first { $0.tier == tier }?.postbacks }
}

/// What to ask the postbacks route for besides the tier (its query parameters).
public struct PostbackOptions: Sendable, Equatable {
    /// Apple's two formats.
    public enum Framework: String, Sendable {
        case skan
        case aak
    }

    /// false: what a network whose ad did not win receives.
    public var didWin: Bool?
    /// Developer Mode's windows (0-3, 3-6, 6-9 minutes) and delays (5-10 minutes).
    public var developerMode: Bool?
    public var framework: Framework?
    /// The first postback's source-identifier digits at tiers 2 and 3 (2, 3 or 4).
    public var digits: Int?
    /// The `country-code` Apple adds where it adds one (ISO 3166-1 alpha-2, `US`).
    public var country: String?

    public init(
        didWin: Bool? = nil, developerMode: Bool? = nil, framework: Framework? = nil, digits: Int? = nil,
        country: String? = nil
    ) {
        self.didWin = didWin
        self.developerMode = developerMode
        self.framework = framework
        self.digits = digits
        self.country = country
    }

    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let didWin { items.append(URLQueryItem(name: "did_win", value: String(didWin))) }
        if let developerMode { items.append(URLQueryItem(name: "developer_mode", value: String(developerMode))) }
        if let framework { items.append(URLQueryItem(name: "framework", value: framework.rawValue)) }
        if let digits { items.append(URLQueryItem(name: "digits", value: String(digits))) }
        if let country { items.append(URLQueryItem(name: "country", value: country)) }
        return items
    }
}
